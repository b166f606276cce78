import type { AnyTool } from '../tools/tool';

/**
 * A switch never grants more tools than the run started with (seed): the registry rebuilt for the
 * new directory is narrowed to the names the agent already held. Tools of the old project's
 * `.mcp.json` drop out (they are not in the rebuilt set); the new project's do not come in (they
 * were never held).
 */
export function narrowToHeld(rebuilt: readonly AnyTool[], held: Iterable<string>): AnyTool[] {
  const names = held instanceof Set ? (held as Set<string>) : new Set(held);
  return rebuilt.filter((t) => names.has(t.name));
}

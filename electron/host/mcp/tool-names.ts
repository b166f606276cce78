import { createHash } from 'node:crypto';
import { TOOL_NAME_MAX } from './constants';

// MCP tools reach the model as `mcp__<server>__<tool>` (seed). The prefix is what keeps them from
// ever shadowing a built-in: no built-in name starts with `mcp__`.

export const MCP_PREFIX = 'mcp__';

/** A server name safe inside the namespace: no `__` (the separator), only [A-Za-z0-9_-]. */
export function safeServerName(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
  return s || 'server';
}

/**
 * The namespaced name of one tool, within the providers' 64-character limit: a longer name is cut
 * and given a short hash of the full name so two long names stay apart.
 */
export function namespacedToolName(server: string, tool: string): string {
  const safeTool = tool.replace(/[^A-Za-z0-9_-]/g, '_') || 'tool';
  const full = `${MCP_PREFIX}${safeServerName(server)}__${safeTool}`;
  if (full.length <= TOOL_NAME_MAX) return full;
  const hash = createHash('sha1').update(`${server}\0${tool}`).digest('hex').slice(0, 6);
  return `${full.slice(0, TOOL_NAME_MAX - 7)}_${hash}`;
}

/** Names for a server's tools, unique even when sanitizing maps two tools to the same name. */
export function uniqueToolNames(server: string, tools: readonly string[]): Map<string, string> {
  const byOriginal = new Map<string, string>();
  const taken = new Set<string>();
  for (const tool of tools) {
    let name = namespacedToolName(server, tool);
    for (let n = 2; taken.has(name); n++)
      name = `${namespacedToolName(server, tool).slice(0, TOOL_NAME_MAX - 3)}_${n}`;
    taken.add(name);
    byOriginal.set(tool, name);
  }
  return byOriginal;
}

import { realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { isInside } from '../fs/safe-path';
import { projectInstructions } from '../projects/instructions';
import { callPaths } from '../rules/match-rule';
import { LIST_TOOL } from '../rules/tool-aliases';

// Instructions in subdirectories (a CLAUDE.md or AGENTS.md below the project root), loaded into
// the agent's context once, the first time it reads, lists or edits something in that directory
// (or below it), as Claude Code does. The root's own file is in the system prompt already. A file
// that resolves outside the project (a symlink planted in it) is not read.

/** The directories from just below the root down to `rel`'s directory. */
export function dirsBetween(rel: string, isDir: boolean): string[] {
  const dir = isDir ? rel : dirname(rel);
  if (dir === '.' || dir === '') return [];
  const parts = dir.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

export interface NestedInput {
  tool: string;
  args: Record<string, unknown>;
  root: string;
  agentId: string;
  /** The instruction files already in this agent's context. */
  loaded: ReadonlySet<string>;
  append(event: SessionEventBody): Promise<void>;
}

export async function loadNestedInstructions(i: NestedInput): Promise<void> {
  const paths = callPaths({ tool: i.tool, args: i.args, root: i.root });
  if (!paths) return;
  let realRoot: string;
  try {
    realRoot = realpathSync(i.root);
  } catch {
    return;
  }
  const loaded = new Set(i.loaded);
  const dirs = new Set(paths.flatMap((p) => dirsBetween(p, i.tool === LIST_TOOL)));
  for (const dir of [...dirs].sort()) {
    const found = await projectInstructions(join(realRoot, dir)).catch(() => null);
    if (!found) continue;
    let real: string;
    try {
      real = realpathSync(found.file);
    } catch {
      continue;
    }
    if (!isInside(realRoot, real)) continue;
    const file = relative(realRoot, found.file).split(sep).join('/');
    if (loaded.has(file)) continue;
    loaded.add(file);
    await i.append({ type: 'instructions_loaded', file, text: found.text, agent_id: i.agentId });
  }
}

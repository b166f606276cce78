import { open } from 'node:fs/promises';
import { join } from 'node:path';

// A project's instructions for the agent: CLAUDE.md, else AGENTS.md, at the project root (the
// files Claude Code and Codex read). The system prompt and switch_project both load them here.

export const INSTRUCTION_FILES = ['CLAUDE.md', 'AGENTS.md'] as const;
/** More than this is cut (with a note): an instructions file is context paid on every request. */
export const INSTRUCTIONS_MAX_CHARS = 40_000;

export interface ProjectInstructions {
  file: string;
  text: string;
  truncated: boolean;
}

/** The first instructions file found at `root`, or null when there is none. */
export async function projectInstructions(root: string): Promise<ProjectInstructions | null> {
  for (const name of INSTRUCTION_FILES) {
    const file = join(root, name);
    let handle;
    try {
      handle = await open(file, 'r');
    } catch {
      continue;
    }
    try {
      if (!(await handle.stat()).isFile()) continue;
      // Read a little past the cap so "exactly at the cap" and "over it" stay apart.
      const buf = Buffer.alloc(INSTRUCTIONS_MAX_CHARS * 4 + 4);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      const full = buf.subarray(0, bytesRead).toString('utf8');
      if (full.length <= INSTRUCTIONS_MAX_CHARS) return { file, text: full, truncated: false };
      return {
        file,
        text: `${full.slice(0, INSTRUCTIONS_MAX_CHARS)}\n\n... (${name} truncated at ${INSTRUCTIONS_MAX_CHARS} characters)`,
        truncated: true,
      };
    } finally {
      await handle.close();
    }
  }
  return null;
}

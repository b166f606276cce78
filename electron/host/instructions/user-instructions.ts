import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INSTRUCTIONS_MAX_CHARS } from '../projects/instructions';

// The user's own instructions, for every project: $MEWBO_HOME/AGENTS.md, and Claude Code's
// ~/.claude/CLAUDE.md when it exists (so a user moving over keeps theirs). Read each step: an
// edit applies to the next request.

export interface InstructionText {
  file: string;
  text: string;
}

export function userInstructionFiles(mewboHome: string, userHome: string | undefined): string[] {
  const files = [join(mewboHome, 'AGENTS.md')];
  if (userHome) files.push(join(userHome, '.claude', 'CLAUDE.md'));
  return files;
}

export async function userInstructions(files: readonly string[]): Promise<InstructionText[]> {
  const out: InstructionText[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.trim()) continue;
    out.push({
      file,
      text:
        text.length > INSTRUCTIONS_MAX_CHARS
          ? `${text.slice(0, INSTRUCTIONS_MAX_CHARS)}\n\n... (truncated at ${INSTRUCTIONS_MAX_CHARS} characters)`
          : text,
    });
  }
  return out;
}

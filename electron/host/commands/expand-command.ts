import type { Skill } from '../skills/skill-catalog';
import { skillBody } from '../skills/skill-catalog';
import type { SlashCommand } from './command-catalog';

// `/name args` typed by the user (in the composer or as a `mewbo run` prompt) becomes the text the
// model reads: a command's body with $ARGUMENTS (and $1, $2, ...) substituted, or a skill's
// instructions followed by the arguments. Anything else starting with "/" is left as typed.

export interface Expansion {
  name: string;
  kind: 'command' | 'skill' | 'prompt';
  scope: 'user' | 'project';
  text: string;
}

export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: (m[2] ?? '').trim() } : null;
}

export function substituteArguments(body: string, args: string): string {
  const words = args.split(/\s+/).filter(Boolean);
  let used = false;
  const out = body
    .replace(/\$ARGUMENTS/g, () => {
      used = true;
      return args;
    })
    .replace(/\$(\d)/g, (_m, d: string) => {
      used = true;
      return words[Number(d) - 1] ?? '';
    });
  // Claude Code appends the arguments when the body does not place them.
  return !used && args ? `${out.trimEnd()}\n\nARGUMENTS: ${args}` : out;
}

export async function expandSlash(
  text: string,
  commands: readonly SlashCommand[],
  skills: readonly Skill[],
): Promise<Expansion | null> {
  const slash = parseSlash(text);
  if (!slash) return null;
  const cmd = commands.find((c) => c.name === slash.name);
  if (cmd)
    return {
      name: cmd.name,
      kind: 'command',
      scope: cmd.scope,
      text: substituteArguments(cmd.body, slash.args).trim(),
    };
  const skill = skills.find((s) => s.name === slash.name);
  if (skill) {
    const body = await skillBody(skill);
    return {
      name: skill.name,
      kind: 'skill',
      scope: skill.scope,
      text: `[The user invoked the skill "${skill.name}". Its instructions:]\n${body}${slash.args ? `\n\n[The user's request:] ${slash.args}` : ''}`,
    };
  }
  return null;
}

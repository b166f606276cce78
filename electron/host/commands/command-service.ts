import type { ProjectTrust } from '../rules/project-trust';
import type { ConfigWarning } from '../rules/settings-sources';
import type { SkillService } from '../skills/skill-service';
import { loadCommands, type SlashCommand } from './command-catalog';
import { expandSlash, type Expansion } from './expand-command';

// The slash commands of a project root (the user's own, and a trusted project's), read on use,
// and the expansion of a message that starts with one.

export interface SlashEntry {
  name: string;
  description: string;
  argument_hint?: string;
  kind: 'command' | 'skill';
  scope: 'user' | 'project';
  file: string;
}

export class CommandService {
  constructor(
    private readonly opts: { userDir: string; trust: ProjectTrust; skills: SkillService },
  ) {}

  load(root: string | null): Promise<{ commands: SlashCommand[]; warnings: ConfigWarning[] }> {
    return loadCommands({
      userDir: this.opts.userDir,
      root,
      trusted: root !== null && this.opts.trust.isTrusted(root),
    });
  }

  /** Commands and skills the user can type as /name, for the composer. */
  async list(root: string | null): Promise<SlashEntry[]> {
    const [{ commands }, { skills }] = await Promise.all([
      this.load(root),
      this.opts.skills.load(root),
    ]);
    return [
      ...commands.map((c) => ({
        name: c.name,
        description: c.description,
        ...(c.argumentHint ? { argument_hint: c.argumentHint } : {}),
        kind: 'command' as const,
        scope: c.scope,
        file: c.file,
      })),
      ...skills
        .filter((s) => !commands.some((c) => c.name === s.name))
        .map((s) => ({
          name: s.name,
          description: s.description,
          kind: 'skill' as const,
          scope: s.scope,
          file: s.file,
        })),
    ];
  }

  async expand(text: string, root: string | null): Promise<Expansion | null> {
    if (!text.trimStart().startsWith('/')) return null;
    const [{ commands }, { skills }] = await Promise.all([
      this.load(root),
      this.opts.skills.load(root),
    ]);
    return expandSlash(text, commands, skills);
  }
}

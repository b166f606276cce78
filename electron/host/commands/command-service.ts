import type { ProjectTrust } from '../rules/project-trust';
import type { ConfigWarning } from '../rules/settings-sources';
import type { SkillService } from '../skills/skill-service';
import type { McpOfferings } from '../mcp/mcp-offerings';
import { loadCommands, type SlashCommand } from './command-catalog';
import { expandSlash, parseSlash, type Expansion } from './expand-command';

// The slash commands of a project root (the user's own, and a trusted project's), read on use,
// and the expansion of a message that starts with one. Connected MCP servers' prompts are
// commands too (`/server:prompt`), after the user's own of the same name.

export interface SlashEntry {
  name: string;
  description: string;
  argument_hint?: string;
  kind: 'command' | 'skill' | 'prompt';
  scope: 'user' | 'project';
  /** The command's or skill's file; an MCP prompt's server. */
  file: string;
}

export class CommandService {
  constructor(
    private readonly opts: {
      userDir: string;
      trust: ProjectTrust;
      skills: SkillService;
      prompts?: Pick<McpOfferings, 'prompts' | 'expand'>;
    },
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
    const [{ commands }, { skills }, prompts] = await Promise.all([
      this.load(root),
      this.opts.skills.load(root),
      this.opts.prompts?.prompts(root) ?? [],
    ]);
    const taken = new Set([...commands.map((c) => c.name), ...skills.map((s) => s.name)]);
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
      ...prompts
        .filter((p) => !taken.has(p.name))
        .map((p) => ({
          ...p,
          kind: 'prompt' as const,
          file: p.name.slice(0, p.name.indexOf(':')),
        })),
    ];
  }

  async expand(text: string, root: string | null): Promise<Expansion | null> {
    if (!text.trimStart().startsWith('/')) return null;
    const [{ commands }, { skills }] = await Promise.all([
      this.load(root),
      this.opts.skills.load(root),
    ]);
    const expanded = await expandSlash(text, commands, skills);
    const slash = parseSlash(text);
    if (expanded || !slash || !this.opts.prompts) return expanded;
    const prompt = await this.opts.prompts.expand(slash.name, slash.args, root);
    return prompt && { ...prompt, kind: 'prompt' };
  }
}

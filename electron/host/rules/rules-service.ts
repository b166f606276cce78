import { isAbsolute, join, relative, sep } from 'node:path';
import { hooksFromSource, type HookCommand } from '../hooks/hook-config';
import type { HookConfine } from '../hooks/hook-sandbox';
import { BashParser } from './bash-parser';
import { shellSource, ShellJudge, type CallInput } from './match-rule';
import type { ShellPattern } from './shell-pattern';
import {
  decideByRules,
  rulesFromSource,
  type LoadedRule,
  type RuleVerdict,
} from './permission-rules';
import type { ProjectTrust } from './project-trust';
import { parseRule, type RuleKind } from './rule';
import {
  PROJECT_RULES_FILE,
  PROJECT_SETTINGS_FILES,
  readSettingsSources,
  type ConfigWarning,
  type RuleScope,
} from './settings-sources';
import { suggestRule } from './suggest-rule';
import { editRuleInFile, editRules } from './write-settings';
import { SettingsFiles, settingsRoot } from '../fs/settings-file';

// The user's permission rules and hooks for a project, from every scope: this session (what
// "Always allow for this session" added; kept in memory, gone with the process as in Claude Code),
// the trusted project's settings files, and configs/app.json. Files are read on each call, so an
// edit (by hand or by "Always allow") applies to the next call without a restart.

export interface RulesServiceOptions {
  configFile: string;
  trust: ProjectTrust;
  /** The environment hooks run with (the user's own hooks get it whole). */
  env: NodeJS.ProcessEnv;
  /** Starts a project's hooks confined like shells; absent: a project's hook is not run. */
  confineHook?: HookConfine;
  /** configs/app.json's owner (ConfigStore.update): one queue, validated, atomic. */
  updateUserConfig(mutate: (raw: Record<string, unknown>) => void): Promise<unknown>;
}

export interface LoadedSettings {
  rules: LoadedRule[];
  hooks: HookCommand[];
  warnings: ConfigWarning[];
  trusted: boolean;
}

export class RulesService {
  private readonly sessionRules = new Map<string, LoadedRule[]>();
  /** Project settings files: edited one at a time per file, never through a link. */
  private readonly files = new SettingsFiles();
  /** Bash's grammar, loaded on the first shell call judged and kept (or why it failed to load). */
  private bash: Promise<BashParser | Error> | undefined;
  /** Shell rule patterns as bash reads them: a rule is read once, not at every call it judges. */
  private readonly patterns = new Map<string, ShellPattern | null>();

  constructor(private readonly opts: RulesServiceOptions) {}

  get env(): NodeJS.ProcessEnv {
    return this.opts.env;
  }

  get confineHook(): HookConfine | undefined {
    return this.opts.confineHook;
  }

  isTrusted(root: string | null): boolean {
    return this.opts.trust.isTrusted(root);
  }

  async load(root: string | null, sessionId?: string): Promise<LoadedSettings> {
    const trusted = root !== null && this.opts.trust.isTrusted(root);
    const { sources, warnings } = await readSettingsSources({
      configFile: this.opts.configFile,
      root,
      trusted,
      admits: (rel, text) => this.opts.trust.trustsContent(root!, rel, text),
    });
    const rules: LoadedRule[] = [...(sessionId ? (this.sessionRules.get(sessionId) ?? []) : [])];
    const hooks: HookCommand[] = [];
    for (const src of sources) {
      rules.push(...rulesFromSource(src, warnings));
      hooks.push(...hooksFromSource(src, warnings));
    }
    return { rules, hooks, warnings, trusted };
  }

  async decide(settings: LoadedSettings, call: CallInput): Promise<RuleVerdict | null> {
    return decideByRules(settings.rules, call, await this.judge(shellSource(call) !== undefined));
  }

  /** The rule "Always allow" would add for a call (see suggest-rule.ts). */
  async suggest(tool: string, args: unknown, root: string): Promise<string | undefined> {
    const call = { tool, args: (args ?? {}) as Record<string, unknown>, root };
    return suggestRule(tool, args, root, await this.judge(shellSource(call) !== undefined));
  }

  /** A judge for one decision; the grammar is loaded only when a shell command is judged. */
  private async judge(shell: boolean): Promise<ShellJudge> {
    if (!shell) return new ShellJudge(null);
    this.bash ??= BashParser.load().catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    const parser = await this.bash;
    return parser instanceof Error
      ? new ShellJudge(null, `bash's grammar could not be loaded (${parser.message})`)
      : new ShellJudge(parser, undefined, this.patterns);
  }

  /** The real project root and the settings file in it that a project rule goes to. */
  private async projectFile(
    root: string | null,
    file?: string,
  ): Promise<{ root: string; file: string }> {
    if (!root || !this.opts.trust.isTrusted(root))
      throw new Error('project rules apply only to a trusted project: trust it first');
    const rel = file && !isAbsolute(file) ? file : PROJECT_RULES_FILE;
    if (file && isAbsolute(file)) {
      const known = PROJECT_SETTINGS_FILES.find((f) => join(root, f) === file);
      if (!known) throw new Error(`${file} is not a settings file of ${root}`);
      return this.projectFile(root, known);
    }
    if (!(PROJECT_SETTINGS_FILES as readonly string[]).includes(rel))
      throw new Error(`${rel} is not a settings file of ${root}`);
    const real = await settingsRoot(root);
    return { root: real, file: join(real, rel) };
  }

  private async editProjectRule(
    where: { root: string | null; file?: string },
    kind: RuleKind,
    rule: string,
    op: 'add' | 'remove',
  ): Promise<boolean> {
    const target = await this.projectFile(where.root, where.file);
    const edit = await editRuleInFile(this.files, target.root, target.file, kind, rule, op);
    // The user's own rule: the file stays trusted (unless it had changed before this edit).
    if (edit.written !== null)
      await this.opts.trust.recordEdit(
        target.root,
        relative(target.root, target.file).split(sep).join('/'),
        edit.before,
        edit.written,
      );
    return edit.changed;
  }

  /** Adds a rule to a scope; false when it was there already. */
  async addRule(
    scope: RuleScope,
    kind: RuleKind,
    raw: string,
    where: { root: string | null; sessionId?: string },
  ): Promise<boolean> {
    const parsed = parseRule(raw);
    if (!parsed.ok) throw new Error(parsed.error);
    if (scope === 'session') {
      if (!where.sessionId) throw new Error('a session rule needs a session');
      const list = this.sessionRules.get(where.sessionId) ?? [];
      if (list.some((r) => r.kind === kind && r.rule.raw === parsed.rule.raw)) return false;
      list.push({ kind, rule: parsed.rule, scope: 'session' });
      this.sessionRules.set(where.sessionId, list);
      return true;
    }
    if (scope === 'project') return this.editProjectRule(where, kind, parsed.rule.raw, 'add');
    return this.editUserConfig(kind, parsed.rule.raw, 'add');
  }

  async removeRule(
    scope: RuleScope,
    kind: RuleKind,
    raw: string,
    where: { root: string | null; sessionId?: string; file?: string },
  ): Promise<boolean> {
    if (scope === 'session') {
      const list = this.sessionRules.get(where.sessionId ?? '') ?? [];
      const at = list.findIndex((r) => r.kind === kind && r.rule.raw === raw);
      if (at === -1) return false;
      list.splice(at, 1);
      return true;
    }
    if (scope === 'project') return this.editProjectRule(where, kind, raw, 'remove');
    return this.editUserConfig(kind, raw, 'remove');
  }

  private async editUserConfig(kind: RuleKind, rule: string, op: 'add' | 'remove') {
    let changed = false;
    await this.opts.updateUserConfig((raw) => {
      changed = editRules(raw, kind, rule, op);
    });
    return changed;
  }

  /** Session rules of every session, for Settings. */
  sessionRuleList(): { sessionId: string; rules: LoadedRule[] }[] {
    return [...this.sessionRules].map(([sessionId, rules]) => ({ sessionId, rules: [...rules] }));
  }
}

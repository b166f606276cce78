import type { RulesOverview } from '../../../shared/protocol/commands/rules';
import type { CommandService } from '../commands/command-service';
import type { RulesService } from '../rules/rules-service';
import type { ConfigWarning } from '../rules/settings-sources';
import type { HandlerMap } from '../rpc/router';
import type { SkillService } from '../skills/skill-service';

type RulesHandlers = Pick<HandlerMap, 'rules.overview' | 'rules.remove' | 'commands.list'>;

export interface RulesHandlerDeps {
  rules: RulesService;
  skills: SkillService;
  commands: CommandService;
  /** The project roots the app knows (configured and opened). */
  projectRoots(): string[];
  /**
   * Where a session's project files the app obeys are read: its root, or for a project on an SSH
   * host the app's copy of the host's (remote/policy-root.ts), never a desktop folder of that path.
   */
  policyRoot(sessionId: string): Promise<string | null>;
}

async function overview(d: RulesHandlerDeps): Promise<RulesOverview> {
  const roots = [null, ...d.projectRoots().filter((r) => d.rules.isTrusted(r))];
  const out: RulesOverview = { rules: [], skills: [], commands: [], warnings: [] };
  const seenWarnings = new Set<string>();
  const seenFiles = new Set<string>();
  const warn = (ws: ConfigWarning[]) => {
    for (const w of ws) {
      const key = `${w.file}:${w.line}:${w.message}`;
      if (seenWarnings.has(key)) continue;
      seenWarnings.add(key);
      out.warnings.push(w);
    }
  };
  for (const root of roots) {
    const [settings, skills, commands] = await Promise.all([
      d.rules.load(root),
      d.skills.load(root),
      d.commands.load(root),
    ]);
    warn([...settings.warnings, ...skills.warnings, ...commands.warnings]);
    for (const r of settings.rules) {
      if (root !== null && r.scope !== 'project') continue;
      out.rules.push({
        kind: r.kind,
        rule: r.rule.raw,
        scope: r.scope,
        ...(r.file ? { file: r.file } : {}),
        ...(r.line ? { line: r.line } : {}),
        ...(root !== null ? { root } : {}),
      });
    }
    for (const s of skills.skills)
      if (!seenFiles.has(s.file) && (root === null || s.scope === 'project')) {
        seenFiles.add(s.file);
        out.skills.push({ name: s.name, description: s.description, scope: s.scope, file: s.file });
      }
    for (const c of commands.commands)
      if (!seenFiles.has(c.file) && (root === null || c.scope === 'project')) {
        seenFiles.add(c.file);
        out.commands.push({
          name: c.name,
          description: c.description,
          scope: c.scope,
          file: c.file,
        });
      }
  }
  for (const { sessionId, rules } of d.rules.sessionRuleList())
    for (const r of rules)
      out.rules.push({ kind: r.kind, rule: r.rule.raw, scope: 'session', session_id: sessionId });
  return out;
}

export function rulesHandlers(d: RulesHandlerDeps): RulesHandlers {
  return {
    'rules.overview': () => overview(d),
    'rules.remove': async (req) => {
      await d.rules.removeRule(req.scope, req.kind, req.rule, {
        root: req.root ?? null,
        file: req.file,
        sessionId: req.session_id,
      });
      return overview(d);
    },
    'commands.list': async (req) => ({
      commands: await d.commands.list(await d.policyRoot(req.id)),
    }),
  };
}

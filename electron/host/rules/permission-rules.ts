import {
  matchRule,
  shellAllowedBy,
  shellSource,
  type CallInput,
  type ShellJudge,
} from './match-rule';
import { parseRule, ruleCoversTool, RULE_KINDS, type ParsedRule, type RuleKind } from './rule';
import {
  lineOf,
  type ConfigWarning,
  type RuleScope,
  type SettingsSource,
} from './settings-sources';

// The rules in force for one call, from every scope, and the verdict: deny beats ask beats allow,
// whatever the scope (a project cannot loosen the user's deny, nor the user a project's). A rule
// that cannot be parsed is a warning naming its file and line, and the others still load.

export interface LoadedRule {
  kind: RuleKind;
  rule: ParsedRule;
  scope: RuleScope;
  /** The file it came from ("session" rules: none). */
  file?: string;
  line?: number;
}

export interface RuleVerdict {
  kind: RuleKind;
  rule: LoadedRule;
  /** Why the call asks when no ask rule matched: a deny rule could not be checked. */
  why?: string;
}

export function rulesFromSource(src: SettingsSource, warnings: ConfigWarning[]): LoadedRule[] {
  const perms = src.json.permissions;
  if (perms === undefined) return [];
  const at = src.text.indexOf('"permissions"');
  if (!perms || typeof perms !== 'object' || Array.isArray(perms)) {
    warnings.push({
      file: src.file,
      line: lineOf(src.text, 'permissions'),
      message: 'permissions must be an object with allow/ask/deny lists',
    });
    return [];
  }
  const out: LoadedRule[] = [];
  for (const kind of RULE_KINDS) {
    const list = (perms as Record<string, unknown>)[kind];
    if (list === undefined) continue;
    const listAt = src.text.indexOf(`"${kind}"`, Math.max(at, 0));
    if (!Array.isArray(list)) {
      warnings.push({
        file: src.file,
        line: lineOf(src.text, kind, Math.max(at, 0)),
        message: `permissions.${kind} must be a list of rules`,
      });
      continue;
    }
    for (const raw of list) {
      const line = lineOf(src.text, raw, Math.max(listAt, 0));
      const parsed = parseRule(raw);
      if (!parsed.ok) {
        warnings.push({ file: src.file, line, message: `permissions.${kind}: ${parsed.error}` });
        continue;
      }
      out.push({ kind, rule: parsed.rule, scope: src.scope, file: src.file, line });
    }
  }
  return out;
}

/**
 * The strongest rule matching the call (deny, then ask, then allow), or null: the mode decides.
 * A shell command a deny rule cannot be checked against (bash's grammar could not read all of it)
 * asks, whatever the mode. A shell command is allowed when each command it runs is allowed by
 * some allow rule (not necessarily the same one).
 */
export function decideByRules(
  rules: readonly LoadedRule[],
  call: CallInput,
  judge: ShellJudge,
): RuleVerdict | null {
  let unjudged: RuleVerdict | null = null;
  for (const kind of ['deny', 'ask'] as const) {
    for (const r of rules) {
      if (r.kind !== kind) continue;
      // Stryker disable next-line StringLiteral: matchRule tells only 'allow' apart; any other kind is a block
      const m = matchRule(r.rule, call, 'block', judge);
      if (m === 'yes' || m === 'unsure' || (m === 'unjudged' && kind === 'ask'))
        return { kind, rule: r };
      if (m === 'unjudged' && !unjudged) {
        // Stryker disable next-line StringLiteral: only a shell source can be unjudged, so it is never undefined here
        const source = shellSource(call) ?? '';
        const why = judge.analysis(source).unjudged[0];
        unjudged = {
          kind: 'ask',
          rule: r,
          why: `the deny rule "${r.rule.raw}" cannot be checked: ${why}`,
        };
      }
    }
  }
  if (unjudged) return unjudged;
  // A deny or ask rule that reaches here said no as a block, and a rule never allows a call it may
  // not match (patternAllows is narrower than patternMayMatch, a path's every than its some).
  // Stryker disable next-line MethodExpression,ConditionalExpression: see above
  const allows = rules.filter((r) => r.kind === 'allow');
  const source = shellSource(call);
  for (const r of allows)
    if (
      (r.rule.pattern === undefined || source === undefined) &&
      matchRule(r.rule, call, 'allow', judge) === 'yes'
    )
      return { kind: 'allow', rule: r };
  if (source === undefined) return null;
  const shellRules = allows.filter(
    // Stryker disable next-line ConditionalExpression: a rule without a pattern for this tool allowed the call above
    (r) => r.rule.pattern !== undefined && ruleCoversTool(r.rule, call.tool),
  );
  const by = shellAllowedBy(shellRules, source, judge);
  return by ? { kind: 'allow', rule: by } : null;
}

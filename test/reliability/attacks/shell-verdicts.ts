import { BashParser } from '../../../electron/host/rules/bash-parser';
import { ShellJudge } from '../../../electron/host/rules/match-rule';
import { decideByRules, type LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';

// The rules' verdict on a shell command, as the host decides it, for the attacks on part 4 of
// issue #25: one parser for the whole file (loading it takes tens of milliseconds).

export const parser = await BashParser.load();

/** A user rule, as settings load it (`Bash(rm:*)`); throws on a rule that does not parse. */
export function loaded(kind: RuleKind, raw: string): LoadedRule {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return { kind, rule: p.rule, scope: 'user' };
}

/** The verdict of `rules` on the shell tool running `command`. */
export const decide = (rules: LoadedRule[], command: string) =>
  decideByRules(
    rules,
    { tool: 'aider_shell_tool', args: { command }, root: '/' },
    new ShellJudge(parser),
  );

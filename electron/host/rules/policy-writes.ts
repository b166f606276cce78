import { isPolicyPath } from '../sandbox/policy-paths';
import { callPaths } from './match-rule';
import { rulesFromSource, type LoadedRule } from './permission-rules';
import { ruleCoversTool } from './rule';
import { readSettingsSources } from './settings-sources';
import { EDIT_TOOLS } from './tool-aliases';

// Writes of the agent's file tools to the project's policy files (sandbox/policy-paths.ts): each
// is an approval in every permission mode (auto and accept-edits included) and over every general
// allow (`Edit`, `Edit(**)`, a hook's "allow"); only an allow rule naming the very file lets one
// through without asking, e.g. `Edit(.mewbo/settings.json)`. Where nobody can approve (`mewbo run`,
// `mewbo tool`, `mewbo mcp`) an unallowed one is refused with the rule that would allow it.

/** The policy files (relative to the root, resolved) this call of an edit tool writes. */
export function policyTargets(tool: string, args: unknown, root: string): string[] {
  if (!(EDIT_TOOLS as readonly string[]).includes(tool)) return [];
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  return [...new Set(callPaths({ tool, args: a, root }) ?? [])].filter(isPolicyPath);
}

/** A pattern that names one path, not a glob. */
const GLOB_CHARS = /[*?[\]{}()!]/;

/** Whether an allow rule names `rel` itself for `tool` (a glob, or no pattern, never does). */
export function explicitlyAllowed(
  rules: readonly LoadedRule[],
  tool: string,
  rel: string,
): boolean {
  return rules.some(
    (r) =>
      r.kind === 'allow' &&
      ruleCoversTool(r.rule, tool) &&
      r.rule.pattern !== undefined &&
      !GLOB_CHARS.test(r.rule.pattern) &&
      r.rule.pattern.replace(/^\.\//, '') === rel,
  );
}

/**
 * For a tool run with nobody to ask (`mewbo tool`, `mewbo mcp`): which policy files the user's own
 * rules (configs/app.json) name, as ToolContext.allowsPolicyWrite. A project's rules are not read:
 * these runs trust no project.
 */
export async function userPolicyAllowance(
  configFile: string,
): Promise<(tool: string, rel: string) => boolean> {
  const { sources } = await readSettingsSources({
    configFile,
    root: null,
    trusted: false,
    admits: async () => false,
  });
  const rules = sources.flatMap((s) => rulesFromSource(s, []));
  return (tool, rel) => explicitlyAllowed(rules, tool, rel);
}

/** The targets no allow rule names: these need the user's approval now. */
export function unallowedTargets(
  rules: readonly LoadedRule[],
  tool: string,
  targets: readonly string[],
): string[] {
  return targets.filter((rel) => !explicitlyAllowed(rules, tool, rel));
}

const list = (rels: readonly string[]) => rels.map((r) => `\`${r}\``).join(', ');

/** What the approval card's summary adds: why this edit asks whatever the mode. */
export function policyNote(rels: readonly string[]): string {
  return `${list(rels)}: the app obeys or runs ${rels.length === 1 ? 'this file' : 'these files'}, so this asks in every mode`;
}

/** Why a policy write was not made (`why`: what was missing), and how the user allows it. */
export function policyRefusal(rels: readonly string[], why: string): string {
  const one = rels.length === 1;
  return (
    `${list(rels)} ${one ? 'is a file' : 'are files'} the app obeys or runs (settings, hooks, MCP ` +
    `servers, git hooks and config). Writing ${one ? 'it' : 'them'} needs the user's approval in ` +
    `every permission mode, and ${why}; nothing was changed. The user can allow it with the rule ` +
    `Edit(${rels[0]}) in permissions.allow of configs/app.json.`
  );
}

import {
  lineOf,
  readSettingsSources,
  type ConfigWarning,
  type SettingsSource,
} from '../rules/settings-sources';
import { CLAUDE_ALIASES } from '../rules/tool-aliases';
import { HOOK_DEFAULT_TIMEOUT_S, HOOK_EVENTS, TOOL_EVENTS, type HookEventName } from './constants';

// The `hooks` section as Claude Code writes it:
//   { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "...", "timeout": 30 } ] } ] }
// `matcher` (a regular expression on the tool name; absent, "" or "*" = every tool) and `timeout`
// (seconds) are optional. A matcher naming a Claude Code tool matches the product's tool it stands
// for. A bad entry is a warning naming its file and line; the others still load.

export interface HookCommand {
  event: HookEventName;
  command: string;
  timeoutS: number;
  matcher: string;
  scope: 'user' | 'project';
  file: string;
  line?: number;
  test(tool: string): boolean;
}

function matcherTest(matcher: string): ((tool: string) => boolean) | string {
  if (matcher === '' || matcher === '*') return () => true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${matcher})$`);
  } catch (err) {
    return `matcher ${JSON.stringify(matcher)} is not a regular expression: ${(err as Error).message}`;
  }
  return (tool) => {
    if (re.test(tool)) return true;
    for (const [alias, tools] of Object.entries(CLAUDE_ALIASES))
      if (tools.includes(tool) && re.test(alias)) return true;
    return false;
  };
}

export function hooksFromSource(src: SettingsSource, warnings: ConfigWarning[]): HookCommand[] {
  const section = src.json.hooks;
  if (section === undefined) return [];
  const warn = (needle: unknown, message: string, from = 0) =>
    warnings.push({
      file: src.file,
      line: lineOf(src.text, needle, from),
      message: `hooks: ${message}`,
    });
  if (!section || typeof section !== 'object' || Array.isArray(section)) {
    warn('hooks', 'must be an object of event names');
    return [];
  }
  const base = Math.max(src.text.indexOf('"hooks"'), 0);
  const out: HookCommand[] = [];
  for (const [event, groups] of Object.entries(section as Record<string, unknown>)) {
    const at = Math.max(src.text.indexOf(`"${event}"`, base), base);
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      warn(event, `unknown event "${event}" (known: ${HOOK_EVENTS.join(', ')})`, base);
      continue;
    }
    if (!Array.isArray(groups)) {
      warn(event, `${event} must be a list of {matcher, hooks}`, base);
      continue;
    }
    for (const g of groups as unknown[]) {
      const group = g as { matcher?: unknown; hooks?: unknown };
      if (!group || typeof group !== 'object' || !Array.isArray(group.hooks)) {
        warn(event, `${event}: each entry needs a "hooks" list`, base);
        continue;
      }
      const matcher = group.matcher === undefined ? '' : group.matcher;
      if (typeof matcher !== 'string') {
        warn('matcher', `${event}: matcher must be a string`, at);
        continue;
      }
      const test = TOOL_EVENTS.includes(event as HookEventName) ? matcherTest(matcher) : () => true;
      if (typeof test === 'string') {
        warn(matcher, `${event}: ${test}`, at);
        continue;
      }
      for (const h of group.hooks as unknown[]) {
        const hook = h as { type?: unknown; command?: unknown; timeout?: unknown };
        if (
          !hook ||
          // Stryker disable next-line ConditionalExpression: a string or number has no `command`, refused by the next test too
          typeof hook !== 'object' ||
          typeof hook.command !== 'string' ||
          !hook.command.trim()
        ) {
          warn(event, `${event}: a hook needs a "command" string`, base);
          continue;
        }
        const line = lineOf(src.text, hook.command, at);
        if (hook.type !== undefined && hook.type !== 'command') {
          warnings.push({
            file: src.file,
            line,
            message: `hooks: ${event}: type ${JSON.stringify(hook.type)} is not supported (only "command")`,
          });
          continue;
        }
        if (
          hook.timeout !== undefined &&
          (typeof hook.timeout !== 'number' || !(hook.timeout > 0))
        ) {
          warnings.push({
            file: src.file,
            line,
            message: `hooks: ${event}: timeout must be a positive number of seconds`,
          });
          continue;
        }
        out.push({
          event: event as HookEventName,
          command: hook.command,
          timeoutS: (hook.timeout as number | undefined) ?? HOOK_DEFAULT_TIMEOUT_S,
          matcher,
          scope: src.scope,
          file: src.file,
          line,
          test,
        });
      }
    }
  }
  return out;
}

/** What trusting `root` would run: its settings files' hooks, for the trust prompt. */
export async function projectHooksPreview(
  root: string,
): Promise<{ kind: 'hook'; name: string; detail: string }[]> {
  // The prompt shows what the files say now, trusted or not: that is what trusting would accept.
  // Stryker disable StringLiteral,ArrayDeclaration,MethodExpression,ConditionalExpression: with no user file read (configFile ''), the filter of project sources and the warnings (discarded) change nothing; they say what the preview is
  const { sources } = await readSettingsSources({
    configFile: '',
    root,
    trusted: true,
    admits: async () => true,
  });
  const warnings: ConfigWarning[] = [];
  return (
    sources
      .filter((s) => s.scope === 'project')
      // Stryker restore StringLiteral,ArrayDeclaration,MethodExpression,ConditionalExpression
      .flatMap((s) => hooksFromSource(s, warnings))
      .map((h) => ({
        kind: 'hook' as const,
        name: `${h.event}${h.matcher ? ` (${h.matcher})` : ''}`,
        detail: h.command,
      }))
  );
}

import { callPaths, shellSource, type ShellJudge } from './match-rule';
import { patternAllows } from './shell-pattern';
import { SHELL_TOOL } from './tool-aliases';

// The rule an approval card's "Always allow" would add for a call: for a shell command its
// program and subcommand as a prefix (`aider_shell_tool(npm test:*)`), or the whole command when
// its second word is an option; for an edit, that file. A shell call that runs more than one
// command (`a && b`, `$(b)`, a wrapper such as `timeout 5 b`), has a word computed at run time,
// assignments, a redirection to a file, or anything bash's grammar could not read gets none: one
// rule would cover more than what was approved, or could not cover it at all.

/** A word as a pattern writes it: bare when bash reads it unchanged, else single-quoted. */
const quoteWord = (w: string) =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;

function suggestShell(tool: string, command: string, judge: ShellJudge): string | undefined {
  const a = judge.analysis(command);
  if (a.unjudged.length || a.writes.length || a.commands.length !== 1) return undefined;
  const [only] = a.commands;
  const words = only!.words;
  if (only!.assignments.length || only!.moreArgs || !words.length) return undefined;
  if (!words.every((w): w is string => w !== null)) return undefined;
  const prefix = words.length >= 2 && !words[1]!.startsWith('-');
  const pattern = prefix
    ? `${words.slice(0, 2).map(quoteWord).join(' ')}:*`
    : words.map(quoteWord).join(' ');
  // The rule must read back as the words approved (and so cover this command).
  const p = judge.pattern(pattern);
  return p && patternAllows(p, only!) ? `${tool}(${pattern})` : undefined;
}

export function suggestRule(
  tool: string,
  args: unknown,
  root: string,
  judge: ShellJudge,
): string | undefined {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  if (tool === SHELL_TOOL) {
    const command = shellSource({ tool, args: a, root });
    return command === undefined ? undefined : suggestShell(tool, command, judge);
  }
  const paths = callPaths({ tool, args: a, root });
  if (paths && paths.length === 1 && !/[*?[\]{}()!]/.test(paths[0]!)) return `${tool}(${paths[0]})`;
  return paths ? undefined : tool;
}

import { callPaths } from './match-rule';
import { splitShellCommand } from './shell-split';
import { SHELL_TOOL } from './tool-aliases';

// The rule an approval card's "Always allow" would add for a call: for a shell command its
// program and subcommand as a prefix (`aider_shell_tool(npm test:*)`), or the whole command when
// its second word is an option; for an edit, that file. A compound command or one the splitter does
// not understand gets none: no single rule could allow it safely.

const quoteWord = (w: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w));

export function suggestRule(tool: string, args: unknown, root: string): string | undefined {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  if (tool === SHELL_TOOL) {
    if (typeof a.command !== 'string') return undefined;
    const parts = splitShellCommand(a.command);
    if (!parts || parts.length !== 1) return undefined;
    const words = parts[0]!;
    if (words.some((w) => w === '$(...)' || w.includes(')'))) return undefined;
    if (words.length >= 2 && !words[1]!.startsWith('-') && !words[0]!.includes('='))
      return `${tool}(${words.slice(0, 2).map(quoteWord).join(' ')}:*)`;
    return `${tool}(${words.map(quoteWord).join(' ')})`;
  }
  const paths = callPaths({ tool, args: a, root });
  if (paths && paths.length === 1 && !/[*?[\]{}()!]/.test(paths[0]!)) return `${tool}(${paths[0]})`;
  return paths ? undefined : tool;
}

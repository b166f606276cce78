import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { safeResolve } from '../fs/safe-path';
import { parseEditBlocks } from '../tools/edit-block-parser';
import { ruleCoversTool, type ParsedRule } from './rule';
import { roughWords, splitShellCommand, type ShellWords } from './shell-split';
import { EDIT_TOOLS, LIST_TOOL, READ_TOOL, SESSION_TOOL, SHELL_TOOL } from './tool-aliases';

// Does a rule match one call? Three answers, because an allow rule must be sure and a deny rule
// must not be fooled: 'yes', 'no', and 'unsure' (a command the splitter does not understand, a
// path that does not resolve, a pattern on a tool whose arguments we cannot read). Allow rules
// treat 'unsure' as no; deny and ask rules treat it as yes.

export type Match = 'yes' | 'no' | 'unsure';

export interface CallInput {
  tool: string;
  args: Record<string, unknown>;
  /** The session's project root (or scratch directory). */
  root: string;
}

/** The words of a shell pattern; a trailing `:*` (Claude Code) or `*` word is a prefix wildcard. */
export function patternWords(pattern: string): ShellWords | null {
  let p = pattern.trim();
  let prefix = false;
  if (p.endsWith(':*')) {
    p = p.slice(0, -2);
    prefix = true;
  }
  const parts = splitShellCommand(p);
  if (!parts || parts.length !== 1) return null;
  const words = parts[0]!;
  if (prefix) words.push('*');
  return words;
}

/** Word-level match: a `*` word matches any run of words (none included). */
export function wordsMatch(pattern: ShellWords, words: ShellWords): boolean {
  const go = (i: number, j: number): boolean => {
    if (i === pattern.length) return j === words.length;
    if (pattern[i] === '*') {
      for (let k = j; k <= words.length; k++) if (go(i + 1, k)) return true;
      return false;
    }
    return j < words.length && pattern[i] === words[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

function shellMatch(rule: ParsedRule, command: string, kind: 'allow' | 'block'): Match {
  const pattern = patternWords(rule.pattern!);
  if (!pattern) return 'unsure';
  const parts = splitShellCommand(command);
  if (parts === null) {
    if (kind === 'allow') return 'no';
    // Not understood: a block rule matches if its fixed words appear in order anywhere.
    const fixed = pattern.filter((w) => w !== '*');
    const words = roughWords(command);
    for (let i = 0; i + fixed.length <= words.length; i++)
      if (fixed.every((w, k) => words[i + k] === w)) return 'yes';
    return 'unsure';
  }
  if (!parts.length) return 'no';
  // Allow: every part must match. Block: any part matching is enough.
  return kind === 'allow'
    ? parts.every((p) => wordsMatch(pattern, p))
      ? 'yes'
      : 'no'
    : parts.some((p) => wordsMatch(pattern, p))
      ? 'yes'
      : 'no';
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The paths a file tool's call touches, relative to the real project root; null when one does not resolve. */
export function callPaths(input: CallInput): string[] | null {
  const { tool, args, root } = input;
  let raw: string[] = [];
  if (tool === READ_TOOL) raw = [str(args.path) ?? ''];
  else if (tool === LIST_TOOL) raw = [str(args.path) ?? '.'];
  else if (tool === 'file_edit_tool') raw = [str(args.file_path) ?? ''];
  else if (tool === 'aider_edit_block_tool')
    raw = parseEditBlocks(str(args.content) ?? '').blocks.map((b) => b.file);
  if (!raw.length || raw.some((p) => !p)) return null;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const p of raw) {
    const r = safeResolve(root, str(args.root), p);
    if (!r.ok) return null;
    out.push(relative(realRoot, r.path).split(sep).join('/') || '.');
  }
  return out;
}

function globFor(pattern: string, root: string): { glob: string; base: 'root' | 'abs' } {
  if (pattern.startsWith('//')) return { glob: pattern.slice(1), base: 'abs' };
  if (pattern.startsWith('~/')) return { glob: `${homedir()}/${pattern.slice(2)}`, base: 'abs' };
  if (isAbsolute(pattern) && pattern.startsWith(root)) return { glob: pattern, base: 'abs' };
  return { glob: pattern.replace(/^\.?\//, ''), base: 'root' };
}

function pathMatch(rule: ParsedRule, input: CallInput, kind: 'allow' | 'block'): Match {
  const paths = callPaths(input);
  if (!paths) return kind === 'allow' ? 'no' : 'unsure';
  let realRoot = input.root;
  try {
    realRoot = realpathSync(input.root);
  } catch {
    /* the root vanished: callPaths already said null */
  }
  const { glob, base } = globFor(rule.pattern!, realRoot);
  // gitignore-like: a pattern without a slash matches a name at any depth.
  const isMatch = picomatch(glob, { dot: true, basename: !glob.includes('/') });
  const hit = (p: string) =>
    isMatch(base === 'abs' ? `${realRoot}/${p}` : p) ||
    (p !== '.' && isMatch(`${base === 'abs' ? `${realRoot}/` : ''}${p}/`));
  const ok = kind === 'allow' ? paths.every(hit) : paths.some(hit);
  return ok ? 'yes' : 'no';
}

const PATH_TOOLS = new Set<string>([READ_TOOL, LIST_TOOL, ...EDIT_TOOLS]);

export function matchRule(rule: ParsedRule, input: CallInput, kind: 'allow' | 'block'): Match {
  if (!ruleCoversTool(rule, input.tool)) return 'no';
  if (rule.pattern === undefined) return 'yes';
  if (input.tool === SHELL_TOOL) {
    const command = str(input.args.command);
    return command === undefined ? 'unsure' : shellMatch(rule, command, kind);
  }
  if (input.tool === SESSION_TOOL) {
    // Only writing input to a running shell runs something; reading, listing, killing do not.
    if (input.args.operation !== 'write') return 'no';
    const text = str(input.args.input);
    return text === undefined ? 'unsure' : shellMatch(rule, text, kind);
  }
  if (PATH_TOOLS.has(input.tool)) return pathMatch(rule, input, kind);
  return 'unsure';
}

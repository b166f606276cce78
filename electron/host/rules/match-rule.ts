import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { safeResolve } from '../fs/safe-path';
import { parseEditBlocks } from '../tools/edit-block-parser';
import { analyzeBash, type BashAnalysis } from './bash-analysis';
import type { BashParser } from './bash-parser';
import { ruleCoversTool, type ParsedRule } from './rule';
import { parsePattern, patternAllows, patternMayMatch, type ShellPattern } from './shell-pattern';
import { EDIT_TOOLS, LIST_TOOL, READ_TOOL, SESSION_TOOL, SHELL_TOOL } from './tool-aliases';

// Does a rule match one call? Four answers, because an allow rule must be sure and a deny rule
// must not be fooled: 'yes', 'no', 'unsure' (may be: a program computed at run time, a path that
// does not resolve, a pattern on a tool whose arguments we cannot read) and 'unjudged' (a shell
// command bash's grammar could not fully read). Allow rules treat anything but 'yes' as no; deny
// and ask rules treat 'unsure' as yes and 'unjudged' as a reason to ask.

export type Match = 'yes' | 'no' | 'unsure' | 'unjudged';

export interface CallInput {
  tool: string;
  args: Record<string, unknown>;
  /** The session's project root (or scratch directory). */
  root: string;
}

/**
 * Shell commands and rule patterns as bash reads them, each read once per decision (a call is
 * checked against every rule). Without a parser (its .wasm failed to load) nothing is judged.
 */
export class ShellJudge {
  private readonly analyses = new Map<string, BashAnalysis>();

  /** `patterns`: rule patterns already read, kept by the caller across decisions (rules repeat). */
  constructor(
    private readonly parser: BashParser | null,
    private readonly loadError = 'the bash parser is not loaded',
    private readonly patterns = new Map<string, ShellPattern | null>(),
  ) {}

  analysis(command: string): BashAnalysis {
    let a = this.analyses.get(command);
    if (!a) {
      a = this.parser
        ? analyzeBash(this.parser, command)
        : { commands: [], unjudged: [this.loadError], writes: [] };
      this.analyses.set(command, a);
    }
    return a;
  }

  pattern(text: string): ShellPattern | null {
    if (!this.patterns.has(text))
      this.patterns.set(text, this.parser ? parsePattern(this.parser, text) : null);
    return this.patterns.get(text)!;
  }
}

/** The shell source a call runs: a command, or input written to a running shell; else undefined. */
export function shellSource(input: CallInput): string | undefined {
  if (input.tool === SHELL_TOOL) return str(input.args.command);
  // Only writing input to a running shell runs something; reading, listing, killing do not.
  if (input.tool === SESSION_TOOL && input.args.operation === 'write') return str(input.args.input);
  return undefined;
}

/**
 * The rule that covers each command of an allowed shell call (the first such rule), or null:
 * every command bash will run must be covered by one of the rules, nothing may be left unjudged,
 * and no redirection may write a file (an allow rule names commands, not files to write).
 */
export function shellAllowedBy<R extends { rule: ParsedRule }>(
  rules: readonly R[],
  command: string,
  judge: ShellJudge,
): R | null {
  const a = judge.analysis(command);
  if (a.unjudged.length || a.writes.length || !a.commands.length) return null;
  let first: R | null = null;
  for (const c of a.commands) {
    const by = rules.find((r) => {
      const p = judge.pattern(r.rule.pattern!);
      return p !== null && patternAllows(p, c);
    });
    if (!by) return null;
    first ??= by;
  }
  return first;
}

function shellMatch(
  rule: ParsedRule,
  command: string,
  kind: 'allow' | 'block',
  judge: ShellJudge,
): Match {
  if (kind === 'allow') return shellAllowedBy([{ rule }], command, judge) ? 'yes' : 'no';
  const pattern = judge.pattern(rule.pattern!);
  if (!pattern) return 'unsure';
  const a = judge.analysis(command);
  if (a.commands.some((c) => patternMayMatch(pattern, c))) return 'yes';
  return a.unjudged.length ? 'unjudged' : 'no';
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
    // Stryker disable next-line StringLiteral: any text without a fenced block holds no edit blocks, as '' does
    raw = parseEditBlocks(str(args.content) ?? '').blocks.map((b) => b.file);
  // Stryker disable next-line MethodExpression: only an edit block call has several paths, and a block's file is never empty
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
  const glob = pattern.replace(/^\.?\//, '');
  // Stryker disable next-line StringLiteral: base is only ever compared with 'abs'
  return { glob, base: 'root' };
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

export function matchRule(
  rule: ParsedRule,
  input: CallInput,
  kind: 'allow' | 'block',
  judge: ShellJudge,
): Match {
  if (!ruleCoversTool(rule, input.tool)) return 'no';
  if (rule.pattern === undefined) return 'yes';
  if (input.tool === SHELL_TOOL || input.tool === SESSION_TOOL) {
    const source = shellSource(input);
    if (source !== undefined) return shellMatch(rule, source, kind, judge);
    return input.tool === SHELL_TOOL || input.args.operation === 'write' ? 'unsure' : 'no';
  }
  if (PATH_TOOLS.has(input.tool)) return pathMatch(rule, input, kind);
  return 'unsure';
}

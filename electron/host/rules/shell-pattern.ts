import type { JudgedCommand } from './bash-analysis';
import { commandWords } from './bash-analysis';
import type { BashParser } from './bash-parser';
import { STAR, type WordValue } from './bash-words';

// A shell rule's pattern (`npm test`, `git diff:*`, `FOO=1 make *`) read with bash's grammar as
// one simple command, and whether it covers a command bash will run. A trailing `:*` (Claude
// Code's form) or a `*` word stands for any run of words. An allow rule must be sure: every word
// as written, a computed word or run-time arguments only where the pattern has `*`, the same
// assignments, and the program spelled as the pattern spells it (`npm` is not `./npm`). A deny or
// ask rule must not be fooled: a computed word may be any words, and the program is compared by
// its last path component (`/bin/rm` and `./rm` are rm).

export interface ShellPattern {
  /** NAME=value words the pattern starts with. */
  assignments: string[];
  /** Program first; STAR for any run of words. */
  words: string[];
}

/** The pattern as bash reads it, or null when it is not one simple command of literal words. */
export function parsePattern(parser: BashParser, pattern: string): ShellPattern | null {
  let text = pattern.trim();
  const prefix = text.endsWith(':*');
  if (prefix) text = text.slice(0, -2);
  return parser.read(text, (tree) => {
    const root = tree.rootNode;
    const [only, ...more] = root.namedChildren;
    if (root.hasError || more.length || only?.type !== 'command') return null;
    const { assignments, words } = commandWords(only, text, true);
    const literal = (w: WordValue): w is string => w !== null;
    const assigned = assignments.map((a) => a.word);
    if (!words.every(literal) || !assigned.every(literal)) return null;
    return { assignments: assigned, words: prefix ? [...words, STAR] : words };
  });
}

const base = (program: string) => program.slice(program.lastIndexOf('/') + 1);

/** Allow: the command is exactly one the pattern describes. */
export function patternAllows(p: ShellPattern, c: JudgedCommand): boolean {
  const assigned = c.assignments.map((a) => a.word);
  if (assigned.length !== p.assignments.length || assigned.some((a, i) => a !== p.assignments[i]))
    return false;
  // A null word (computed, or run-time arguments) is covered only by a STAR.
  const words: WordValue[] = c.moreArgs ? [...c.words, null] : c.words;
  const go = (i: number, j: number): boolean => {
    if (i === p.words.length) return j === words.length;
    if (p.words[i] === STAR) {
      for (let k = j; k <= words.length; k++) if (go(i + 1, k)) return true;
      return false;
    }
    return j < words.length && words[j] === p.words[i] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

/** Deny / ask: the command is, or may be, one the pattern describes. */
export function patternMayMatch(p: ShellPattern, c: JudgedCommand): boolean {
  const assigned = c.assignments.map((a) => a.word);
  if (p.assignments.some((a) => !assigned.includes(a) && !assigned.includes(null))) return false;
  const words: WordValue[] = c.moreArgs ? [...c.words, null] : c.words;
  const pw = p.words;
  // Two programs named for sure, and not the same: no match (most commands, most rules).
  const [program, first] = [pw[0], words[0]];
  if (program !== undefined && program !== STAR && first && base(program) !== base(first))
    return false;
  const same = (i: number, j: number) =>
    i === 0 && j === 0 ? base(pw[0]!) === base(words[0]!) : pw[i] === words[j];
  const seen = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (words.length + 1) + j;
    const known = seen.get(key);
    if (known !== undefined) return known;
    let ok = i === pw.length && j === words.length;
    // Either side's wildcard takes one more word of the other side, or ends.
    if (!ok && pw[i] === STAR) ok = go(i + 1, j) || (j < words.length && go(i, j + 1));
    if (!ok && j < words.length && words[j] === null)
      ok = go(i, j + 1) || (i < pw.length && go(i + 1, j));
    if (!ok && i < pw.length && j < words.length && pw[i] !== STAR && words[j] !== null)
      ok = same(i, j) && go(i + 1, j + 1);
    seen.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

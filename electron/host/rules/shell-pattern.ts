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
    // Past the command's end words[j] is undefined, which no pattern word is.
    return words[j] === p.words[i] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

/** Deny / ask: the command is, or may be, one the pattern describes. */
export function patternMayMatch(p: ShellPattern, c: JudgedCommand): boolean {
  const assigned = c.assignments.map((a) => a.word);
  if (p.assignments.some((a) => !assigned.includes(a) && !assigned.includes(null))) return false;
  const words: WordValue[] = c.moreArgs ? [...c.words, null] : c.words;
  const pw = p.words;
  // Two programs named for sure, and not the same: no match (most commands, most rules). The
  // pattern's program is always a literal word (parsePattern reads no other).
  // Stryker disable next-line ConditionalExpression: an early answer only; go() reaches the same false comparing the two programs
  if (words[0] && base(pw[0]!) !== base(words[0])) return false;
  // The pattern's program is compared by its last path component wherever it lands: computed
  // words before it may be empty (`$X /bin/rm -rf /` runs /bin/rm when X is empty).
  const same = (i: number, j: number) =>
    i === 0 ? base(pw[0]!) === base(words[j]!) : pw[i] === words[j];
  // Each (pattern word, command word) pair is judged once: a command of many computed words
  // against a long pattern would otherwise be split in exponentially many ways.
  const seen = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    if (i === pw.length && j === words.length) return true;
    // Stryker disable next-line ArithmeticOperator: i * (n + 1) - j is as unique a key as + j (j is at most n)
    const key = i * (words.length + 1) + j;
    let ok = seen.get(key);
    if (ok !== undefined) return ok;
    // Either side's wildcard takes one more word of the other side, or ends.
    if (pw[i] === STAR) ok = go(i + 1, j) || (j < words.length && go(i, j + 1));
    else if (words[j] === null)
      // Stryker disable next-line EqualityOperator: past the pattern's end go(i + 1, j) matches nothing either
      ok = go(i, j + 1) || (i < pw.length && go(i + 1, j));
    else ok = j < words.length && same(i, j) && go(i + 1, j + 1);
    seen.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

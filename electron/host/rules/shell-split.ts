import { parse, type ParseEntry } from 'shell-quote';

// Splits a shell command into the simple commands it runs, as words, so that a rule can be matched
// against every one: `a && b`, `a; b`, `a | b`, `a || b`, `a & b`, and `$(c)` (its command is a part
// of its own; where it stood the outer part has the word `$(...)`). Anything this splitter does not
// understand makes the whole command "not understood" (null): backticks, a newline, `<(`/`>(`,
// a subshell, `$(` inside double quotes, a variable (`$X` can expand to any command), a
// redirection other than to /dev/null or between descriptors. Callers fail closed on null: no allow
// rule matches it, and deny and ask rules are checked against its words anywhere.

export type ShellWords = string[];

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', '|&']);
const SUBST_WORD = '$(...)';
/** Redirect operators allowed when their target is a descriptor number or /dev/null. */
const REDIRECTS = new Set(['>', '>>', '>&', '<&', '&>', '>|', '<']);

interface VarMarker {
  __var: string;
}
const isVar = (t: unknown): t is VarMarker =>
  typeof t === 'object' && t !== null && '__var' in (t as object);

/** Raw-text checks for what shell-quote would parse into something misleading. */
function rawUnderstood(cmd: string): boolean {
  if (/[\n\r`\0]/.test(cmd)) return false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '$') return false;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ((c === '<' || c === '>') && cmd[i + 1] === '(') return false;
    else if (c === '$' && cmd[i + 1] === '(' && cmd[i + 2] === '(') return false;
  }
  return quote === null;
}

/** The simple commands of `cmd`, each as its words; null when the command is not understood. */
export function splitShellCommand(cmd: string): ShellWords[] | null {
  if (!rawUnderstood(cmd)) return null;
  let tokens: ParseEntry[];
  try {
    tokens = parse(cmd, (key) => ({ __var: key }) as unknown as string);
  } catch {
    return null;
  }
  const parts: ShellWords[] = [];
  // A stack of open commands: the outer one and each `$(` inside it.
  const stack: ShellWords[] = [[]];
  const flush = (words: ShellWords) => {
    if (words.length) parts.push([...words]);
    words.length = 0;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as unknown;
    const cur = stack[stack.length - 1]!;
    if (typeof t === 'string') {
      cur.push(t);
      continue;
    }
    if (isVar(t)) {
      const next = tokens[i + 1] as unknown;
      // shell-quote reads `$(` as an empty variable followed by "(".
      if (
        t.__var === '' &&
        typeof next === 'object' &&
        next &&
        (next as { op?: string }).op === '('
      ) {
        cur.push(SUBST_WORD);
        stack.push([]);
        i++;
        continue;
      }
      return null;
    }
    if (typeof t !== 'object' || t === null) return null;
    if ('comment' in t) continue;
    const op = (t as { op: string; pattern?: string }).op;
    if (op === 'glob') {
      cur.push((t as { pattern: string }).pattern);
      continue;
    }
    if (SEPARATORS.has(op)) {
      flush(cur);
      continue;
    }
    if (op === ')') {
      if (stack.length === 1) return null;
      flush(cur);
      stack.pop();
      continue;
    }
    if (REDIRECTS.has(op)) {
      const target = tokens[i + 1];
      if (typeof target !== 'string') return null;
      const toDescriptor = /^\d+$/.test(target) && (op === '>&' || op === '<&');
      if (!toDescriptor && target !== '/dev/null') return null;
      // `2>&1`: shell-quote leaves the descriptor number as the previous word.
      if (/^\d+$/.test(cur[cur.length - 1] ?? '') && cmd.includes(`${cur[cur.length - 1]}${op}`))
        cur.pop();
      i++;
      continue;
    }
    return null;
  }
  if (stack.length !== 1) return null;
  flush(stack[0]!);
  return parts;
}

/** Words of a command for deny/ask checks when it is not understood: split on blanks and operators. */
export function roughWords(cmd: string): ShellWords {
  return cmd
    .split(/[\s;&|()<>`$"']+/)
    .map((w) => w.trim())
    .filter(Boolean);
}

import { diffLineArrays, splitKeepEol, type DiffOp } from './line-diff';

// Unified diff text (`diff -u` / git style) from the bounded line diff, with exact counts. The
// text is capped for the model's context; the counts are always exact.

/** Context lines around each change, as `diff -u` uses. */
const CONTEXT_LINES = 3;
/** Diff text kept in a payload (characters); a whole-file rewrite of a big file would flood the context. */
export const DIFF_TEXT_MAX_CHARS = 100_000;

export interface UnifiedDiff {
  text: string;
  additions: number;
  deletions: number;
}

export interface DiffNames {
  /** Display path of the file (relative to the root). */
  path: string;
  /** The file did not exist before (old side is /dev/null). */
  created?: boolean;
}

function body(line: string, sign: string, out: string[]): void {
  if (line.endsWith('\n')) out.push(sign + line.slice(0, -1));
  else out.push(sign + line, '\\ No newline at end of file');
}

function range(start: number, count: number): string {
  // Unified format quirk: an empty side names the line before it.
  return `${count === 0 ? start : start + 1},${count}`;
}

function hunks(a: string[], b: string[], ops: DiffOp[], lineOffset: number): string[] {
  const out: string[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.op === 'equal') {
      k++;
      continue;
    }
    const prev = ops[k - 1];
    const lead = prev ? Math.min(prev.n, CONTEXT_LINES) : 0;
    const first = ops[k]!;
    const oldStart = first.a - lead;
    const newStart = first.b - lead;
    const lines: string[] = [];
    for (let i = oldStart; i < first.a; i++) body(a[i]!, ' ', lines);
    let oldEnd = first.a;
    let newEnd = first.b;
    for (; k < ops.length; k++) {
      const op = ops[k]!;
      if (op.op === 'equal') {
        const isLast = k === ops.length - 1;
        const take = !isLast && op.n <= 2 * CONTEXT_LINES ? op.n : Math.min(op.n, CONTEXT_LINES);
        for (let i = 0; i < take; i++) body(a[op.a + i]!, ' ', lines);
        oldEnd = op.a + take;
        newEnd = op.b + take;
        if (take < op.n || isLast) {
          k++;
          break;
        }
      } else {
        // A run of changes between two equal stretches prints its deletions first, as diff -u does.
        let end = k;
        while (end < ops.length && ops[end]!.op !== 'equal') end++;
        for (const kind of ['delete', 'insert'] as const) {
          for (let r = k; r < end; r++) {
            const c = ops[r]!;
            if (c.op !== kind) continue;
            for (let i = 0; i < c.n; i++)
              body(
                kind === 'delete' ? a[c.a + i]! : b[c.b + i]!,
                kind === 'delete' ? '-' : '+',
                lines,
              );
            if (kind === 'delete') oldEnd = c.a + c.n;
            else newEnd = c.b + c.n;
          }
        }
        k = end - 1;
      }
    }
    const header = `@@ -${range(lineOffset + oldStart, oldEnd - oldStart)} +${range(lineOffset + newStart, newEnd - newStart)} @@`;
    out.push(header, ...lines);
  }
  return out;
}

function cap(lines: string[]): string {
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    size += lines[i]!.length + 1;
    if (size > DIFF_TEXT_MAX_CHARS) {
      return `${lines.slice(0, i).join('\n')}\n... (diff truncated: ${lines.length - i} more lines)\n`;
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Characters compared per step while trimming: string slices compare natively, chars one by one do not. */
const TRIM_CHUNK_CHARS = 4096;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (
    i + TRIM_CHUNK_CHARS <= n &&
    a.slice(i, i + TRIM_CHUNK_CHARS) === b.slice(i, i + TRIM_CHUNK_CHARS)
  )
    i += TRIM_CHUNK_CHARS;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  while (
    s + TRIM_CHUNK_CHARS <= max &&
    a.slice(a.length - s - TRIM_CHUNK_CHARS, a.length - s) ===
      b.slice(b.length - s - TRIM_CHUNK_CHARS, b.length - s)
  )
    s += TRIM_CHUNK_CHARS;
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return s;
}

function backLines(text: string, from: number, n: number): number {
  let at = from;
  for (let k = 0; k < n && at > 0; k++) at = at < 2 ? 0 : text.lastIndexOf('\n', at - 2) + 1;
  return at;
}

function forwardLines(text: string, from: number, n: number): number {
  let at = from;
  for (let k = 0; k < n && at < text.length; k++) {
    const nl = text.indexOf('\n', at);
    at = nl === -1 ? text.length : nl + 1;
  }
  return at;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The unified diff of one file's change; empty text when nothing changed. Only the changed
 * middle (plus context) is split into lines, so a small edit of a huge file stays cheap.
 */
export function unifiedDiff(before: string, after: string, names: DiffNames): UnifiedDiff {
  if (before === after) return { text: '', additions: 0, deletions: 0 };
  const prefix = commonPrefix(before, after);
  const lineStart = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const maxSuffix = Math.min(before.length, after.length) - lineStart;
  let endA = before.length - commonSuffix(before, after, maxSuffix);
  // The common tail must start at a line start in both texts (or be empty).
  if (endA > lineStart && before.charCodeAt(endA - 1) !== 0x0a)
    endA = forwardLines(before, endA, 1);
  const tail = before.length - endA;
  const endB = after.length - tail;
  const ctxStart = backLines(before, lineStart, CONTEXT_LINES);
  const a = splitKeepEol(before.slice(ctxStart, forwardLines(before, endA, CONTEXT_LINES)));
  const b = splitKeepEol(after.slice(ctxStart, forwardLines(after, endB, CONTEXT_LINES)));
  const ops = diffLineArrays(a, b);
  let additions = 0;
  let deletions = 0;
  for (const op of ops) {
    if (op.op === 'insert') additions += op.n;
    else if (op.op === 'delete') deletions += op.n;
  }
  const header = [names.created ? '--- /dev/null' : `--- a/${names.path}`, `+++ b/${names.path}`];
  return {
    text: cap([...header, ...hunks(a, b, ops, countNewlines(before, ctxStart))]),
    additions,
    deletions,
  };
}

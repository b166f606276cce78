import { diffArrays } from 'diff';

// Line diff that stays fast on any input. jsdiff's Myers is exact but O((N+M)·D): a 50k-line file
// with thousands of changes takes seconds. So: trim the common head and tail (the usual edit is
// small), run jsdiff with a cap on the edit length and a time limit, and when it gives up fall
// back to a patience-style diff anchored on lines unique to both sides, which is near-linear
// and stays readable; a stretch with no anchors becomes one replaced block.

/** jsdiff gives up past this many inserted+deleted lines (200 changes ≈ 400 edits, with margin). */
const MYERS_MAX_EDIT_LENGTH = 2000;
/** ...or past this long (ms), whichever comes first. */
const MYERS_TIMEOUT_MS = 150;
/** A gap between anchors this small (lines per side) is diffed exactly again. */
const SMALL_GAP_LINES = 200;
/** Anchor recursion past this depth gives up on the stretch (keeps the stack bounded). */
const MAX_ANCHOR_DEPTH = 32;

export type DiffOp = { op: 'equal' | 'delete' | 'insert'; a: number; b: number; n: number };

/** Splits text into lines that keep their terminator, so a missing final newline is a difference. */
export function splitKeepEol(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

function push(out: DiffOp[], op: DiffOp['op'], a: number, b: number, n: number): void {
  if (n <= 0) return;
  const last = out[out.length - 1];
  if (last && last.op === op && last.a + (op === 'insert' ? 0 : last.n) === a && last.b + (op === 'delete' ? 0 : last.n) === b) {
    last.n += n;
    return;
  }
  out.push({ op, a, b, n });
}

/** Exact Myers via jsdiff on a[aLo,aHi) x b[bLo,bHi); false if it exceeded its budget. */
function myers(a: string[], aLo: number, aHi: number, b: string[], bLo: number, bHi: number, out: DiffOp[], maxEdit: number): boolean {
  const changes = diffArrays(a.slice(aLo, aHi), b.slice(bLo, bHi), { maxEditLength: maxEdit, timeout: MYERS_TIMEOUT_MS });
  if (!changes) return false;
  let i = aLo;
  let j = bLo;
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.added) {
      push(out, 'insert', i, j, n);
      j += n;
    } else if (c.removed) {
      push(out, 'delete', i, j, n);
      i += n;
    } else {
      push(out, 'equal', i, j, n);
      i += n;
      j += n;
    }
  }
  return true;
}

/** Pairs of (aIndex, bIndex) for lines occurring exactly once on each side, in a's order. */
function uniquePairs(a: string[], aLo: number, aHi: number, b: string[], bLo: number, bHi: number): Array<[number, number]> {
  const counts = new Map<string, { ca: number; cb: number; ia: number; ib: number }>();
  for (let i = aLo; i < aHi; i++) {
    const e = counts.get(a[i]!);
    if (e) e.ca++;
    else counts.set(a[i]!, { ca: 1, cb: 0, ia: i, ib: -1 });
  }
  for (let j = bLo; j < bHi; j++) {
    const e = counts.get(b[j]!);
    if (e) {
      e.cb++;
      e.ib = j;
    }
  }
  const pairs: Array<[number, number]> = [];
  for (const e of counts.values()) if (e.ca === 1 && e.cb === 1) pairs.push([e.ia, e.ib]);
  return pairs.sort((x, y) => x[0] - y[0]);
}

/** Longest increasing subsequence of the b indexes (patience sorting), O(n log n). */
function longestIncreasing(pairs: Array<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const prev = new Array<number>(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const v = pairs[k]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const result: Array<[number, number]> = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) result.push(pairs[k]!);
  return result.reverse();
}

function diffRange(a: string[], aLo: number, aHi: number, b: string[], bLo: number, bHi: number, out: DiffOp[], exactBudget: number, depth = 0): void {
  let s = 0;
  while (aLo + s < aHi && bLo + s < bHi && a[aLo + s] === b[bLo + s]) s++;
  push(out, 'equal', aLo, bLo, s);
  aLo += s;
  bLo += s;
  let e = 0;
  while (aHi - e > aLo && bHi - e > bLo && a[aHi - 1 - e] === b[bHi - 1 - e]) e++;
  aHi -= e;
  bHi -= e;
  if (aLo === aHi || bLo === bHi) {
    push(out, 'delete', aLo, bLo, aHi - aLo);
    push(out, 'insert', aHi, bLo, bHi - bLo);
  } else if (!myers(a, aLo, aHi, b, bLo, bHi, out, exactBudget)) {
    const anchors = depth < MAX_ANCHOR_DEPTH ? longestIncreasing(uniquePairs(a, aLo, aHi, b, bLo, bHi)) : [];
    if (anchors.length === 0) {
      push(out, 'delete', aLo, bLo, aHi - aLo);
      push(out, 'insert', aHi, bLo, bHi - bLo);
    } else {
      let i = aLo;
      let j = bLo;
      for (const [ai, bj] of anchors) {
        const small = ai - i <= SMALL_GAP_LINES && bj - j <= SMALL_GAP_LINES;
        diffRange(a, i, ai, b, j, bj, out, small ? SMALL_GAP_LINES * 2 : 0, depth + 1);
        push(out, 'equal', ai, bj, 1);
        i = ai + 1;
        j = bj + 1;
      }
      const small = aHi - i <= SMALL_GAP_LINES && bHi - j <= SMALL_GAP_LINES;
      diffRange(a, i, aHi, b, j, bHi, out, small ? SMALL_GAP_LINES * 2 : 0, depth + 1);
    }
  }
  push(out, 'equal', aHi, bHi, e);
}

/** Edit script turning `a` into `b` (line arrays from splitKeepEol), in order, adjacent ops merged. */
export function diffLineArrays(a: string[], b: string[]): DiffOp[] {
  const out: DiffOp[] = [];
  diffRange(a, 0, a.length, b, 0, b.length, out, MYERS_MAX_EDIT_LENGTH);
  return out;
}

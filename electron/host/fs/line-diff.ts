import { diffArrays } from 'diff';

// Line diff that stays fast on any input. jsdiff's Myers is exact but O((N+M)·D): a 50k-line file
// with thousands of changes takes seconds. So: trim the common head and tail (the usual edit is
// small); a small remaining range goes to jsdiff with a cap on edit length and time; a large one
// is first split on lines unique to both sides (patience diff, near-linear, as git's --patience)
// and each gap between those anchors is diffed the same way. A stretch with no anchors where
// Myers gives up becomes one replaced block.

/** Ranges up to this many lines (both sides together) go straight to Myers. */
const EXACT_RANGE_LINES = 4000;
/** jsdiff gives up past this many inserted+deleted lines... */
const MYERS_MAX_EDIT_LENGTH = 2000;
/** ...or past this long (ms), whichever comes first. */
const MYERS_TIMEOUT_MS = 150;
/** Anchor recursion past this depth gives up on the stretch (keeps the stack bounded). */
const MAX_ANCHOR_DEPTH = 32;

export type DiffOp = { op: 'equal' | 'delete' | 'insert'; a: number; b: number; n: number };

/** Splits text into lines that keep their terminator, so a missing final newline is a difference. */
export function splitKeepEol(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
    lines.push(text.slice(from, nl + 1));
    from = nl + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

function push(out: DiffOp[], op: DiffOp['op'], a: number, b: number, n: number): void {
  if (n <= 0) return;
  const last = out[out.length - 1];
  if (
    last &&
    last.op === op &&
    last.a + (op === 'insert' ? 0 : last.n) === a &&
    last.b + (op === 'delete' ? 0 : last.n) === b
  ) {
    last.n += n;
    return;
  }
  out.push({ op, a, b, n });
}

/** Exact Myers via jsdiff on a[aLo,aHi) x b[bLo,bHi); false if it exceeded its budget. */
function myers(
  a: string[],
  aLo: number,
  aHi: number,
  b: string[],
  bLo: number,
  bHi: number,
  out: DiffOp[],
  maxEdit: number,
): boolean {
  const changes = diffArrays(a.slice(aLo, aHi), b.slice(bLo, bHi), {
    maxEditLength: maxEdit,
    timeout: MYERS_TIMEOUT_MS,
  });
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

/** Lines occurring exactly once on each side, as parallel index arrays in a's order. */
function uniquePairs(
  a: string[],
  aLo: number,
  aHi: number,
  b: string[],
  bLo: number,
  bHi: number,
): { ai: Int32Array; bi: Int32Array } {
  // Index of the line's only occurrence in a, or -1 once it repeats.
  const inA = new Map<string, number>();
  for (let i = aLo; i < aHi; i++) {
    const seen = inA.get(a[i]!);
    if (seen === undefined) inA.set(a[i]!, i);
    else if (seen !== -1) inA.set(a[i]!, -1);
  }
  // For each a line: -1 no match in b yet, -2 several, else the index of its only match in b.
  const match = new Int32Array(aHi - aLo).fill(-1);
  for (let j = bLo; j < bHi; j++) {
    const ia = inA.get(b[j]!);
    if (ia === undefined || ia === -1) continue;
    match[ia - aLo] = match[ia - aLo] === -1 ? j : -2;
  }
  let n = 0;
  for (let k = 0; k < match.length; k++) if (match[k]! >= 0) n++;
  const ai = new Int32Array(n);
  const bi = new Int32Array(n);
  for (let k = 0, m = 0; k < match.length; k++) {
    if (match[k]! >= 0) {
      ai[m] = aLo + k;
      bi[m++] = match[k]!;
    }
  }
  return { ai, bi };
}

/** Longest increasing subsequence of the b indexes (patience sorting), O(n log n). */
function longestIncreasing({
  ai,
  bi,
}: {
  ai: Int32Array;
  bi: Int32Array;
}): Array<[number, number]> {
  const tails: number[] = [];
  const prev = new Int32Array(bi.length).fill(-1);
  for (let k = 0; k < bi.length; k++) {
    const v = bi[k]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bi[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const result: Array<[number, number]> = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!)
    result.push([ai[k]!, bi[k]!]);
  return result.reverse();
}

function includes(lines: string[], lo: number, hi: number, line: string): boolean {
  for (let i = lo; i < hi; i++) if (lines[i] === line) return true;
  return false;
}

/** One side is a single line the other side lacks: nothing in common (the usual one-line change). */
function lonelyLine(
  a: string[],
  aLo: number,
  aHi: number,
  b: string[],
  bLo: number,
  bHi: number,
): boolean {
  if (aHi - aLo === 1) return !includes(b, bLo, bHi, a[aLo]!);
  if (bHi - bLo === 1) return !includes(a, aLo, aHi, b[bLo]!);
  return false;
}

function diffRange(
  a: string[],
  aLo: number,
  aHi: number,
  b: string[],
  bLo: number,
  bHi: number,
  out: DiffOp[],
  depth = 0,
): void {
  let s = 0;
  while (aLo + s < aHi && bLo + s < bHi && a[aLo + s] === b[bLo + s]) s++;
  push(out, 'equal', aLo, bLo, s);
  aLo += s;
  bLo += s;
  let e = 0;
  while (aHi - e > aLo && bHi - e > bLo && a[aHi - 1 - e] === b[bHi - 1 - e]) e++;
  aHi -= e;
  bHi -= e;
  const replaceAll = (): void => {
    push(out, 'delete', aLo, bLo, aHi - aLo);
    push(out, 'insert', aHi, bLo, bHi - bLo);
  };
  const small = aHi - aLo + (bHi - bLo) <= EXACT_RANGE_LINES;
  if (aLo === aHi || bLo === bHi || lonelyLine(a, aLo, aHi, b, bLo, bHi)) replaceAll();
  else if (small && myers(a, aLo, aHi, b, bLo, bHi, out, MYERS_MAX_EDIT_LENGTH)) {
    // exact
  } else {
    const anchors =
      depth < MAX_ANCHOR_DEPTH ? longestIncreasing(uniquePairs(a, aLo, aHi, b, bLo, bHi)) : [];
    if (anchors.length === 0) {
      if (small || !myers(a, aLo, aHi, b, bLo, bHi, out, MYERS_MAX_EDIT_LENGTH)) replaceAll();
    } else {
      let i = aLo;
      let j = bLo;
      for (const [ai, bj] of anchors) {
        diffRange(a, i, ai, b, j, bj, out, depth + 1);
        push(out, 'equal', ai, bj, 1);
        i = ai + 1;
        j = bj + 1;
      }
      diffRange(a, i, aHi, b, j, bHi, out, depth + 1);
    }
  }
  push(out, 'equal', aHi, bHi, e);
}

/** Edit script turning `a` into `b` (line arrays from splitKeepEol), in order, adjacent ops merged. */
export function diffLineArrays(a: string[], b: string[]): DiffOp[] {
  const out: DiffOp[] = [];
  diffRange(a, 0, a.length, b, 0, b.length, out);
  return out;
}

// Fuzzy ranking of project paths for the composer's `@` menu, in the manner of fzf and VS Code's
// quick open: the query's characters must appear in order (case-insensitive); matches that are
// consecutive, start a word (after / _ - . or a camelCase hump) or fall in the file name score
// higher, and the gaps between matched characters cost.

const MATCH = 16;
const CONSECUTIVE = 12;
const WORD_START = 10;
const IN_BASENAME = 6;
const GAP = 1;
const SEPARATORS = new Set(['/', '_', '-', '.', ' ']);

/** The score of `path` for `query` (lower-cased, no spaces), or null when it does not match. */
export function fuzzyScore(path: string, query: string): number | null {
  if (!query) return 0;
  const lower = path.toLowerCase();
  // Forward: the first end of a match; backward from there: the shortest window holding it.
  let qi = 0;
  let end = -1;
  for (let i = 0; i < lower.length; i++) {
    if (lower[i] !== query[qi]) continue;
    if (++qi === query.length) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  let start = end;
  for (let i = end, k = query.length - 1; i >= 0 && k >= 0; i--) {
    if (lower[i] === query[k]) {
      start = i;
      k--;
    }
  }
  const base = lower.lastIndexOf('/') + 1;
  let score = 0;
  let prev = -2;
  for (let i = start, k = 0; i <= end && k < query.length; i++) {
    if (lower[i] !== query[k]) continue;
    score += MATCH;
    if (i === prev + 1) score += CONSECUTIVE;
    const before = path[i - 1];
    const hump = before !== undefined && /[a-z0-9]/.test(before) && /[A-Z]/.test(path[i]!);
    if (i === 0 || SEPARATORS.has(before!) || hump) score += WORD_START;
    if (i >= base) score += IN_BASENAME;
    prev = i;
    k++;
  }
  score -= (end - start + 1 - query.length) * GAP;
  // The file name itself, or its stem, typed out: that file is what was meant.
  const name = lower.slice(base);
  if (name === query || name.slice(0, name.lastIndexOf('.')) === query) score += MATCH * 4;
  else if (name.startsWith(query)) score += MATCH * 2;
  return score;
}

/**
 * The best `limit` paths for `query`, best first; equal scores go to the shorter path, then in
 * name order. An empty query lists the shallowest files first (what a project's top holds).
 */
export function rankPaths(paths: readonly string[], query: string, limit: number): string[] {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const scored: Array<{ path: string; score: number }> = [];
  for (const path of paths) {
    const score = q ? fuzzyScore(path, q) : -path.split('/').length;
    if (score !== null) scored.push({ path, score });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.path.length - b.path.length ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return scored.slice(0, limit).map((s) => s.path);
}

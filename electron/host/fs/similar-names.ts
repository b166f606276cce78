import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';

// "Did you mean ...?" for a missing file: siblings whose name differs only in case, extension or
// a couple of characters. Only the parent directory is read, so this stays cheap.

/** Suggestions offered at most. */
const MAX_SUGGESTIONS = 3;
/** Edit distance still considered a typo. */
const MAX_TYPO_DISTANCE = 2;
/** Entries of the parent directory examined at most (a huge directory is not scanned). */
const MAX_SIBLINGS_SCANNED = 5000;

function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length]!;
}

const stem = (name: string): string => name.replace(/\.[^.]*$/, '').toLowerCase();

/** Root-relative paths of siblings that look like what `missing` meant. */
export async function similarNames(root: string, missing: string): Promise<string[]> {
  const dir = dirname(missing);
  const want = basename(missing);
  let names: string[];
  try {
    names = (await readdir(dir)).slice(0, MAX_SIBLINGS_SCANNED);
  } catch {
    return [];
  }
  const scored = names
    .map((name) => {
      const lower = name.toLowerCase() === want.toLowerCase();
      const sameStem = stem(name) === stem(want);
      const d = distance(name.toLowerCase(), want.toLowerCase(), MAX_TYPO_DISTANCE);
      const score = lower ? 0 : sameStem ? 1 : d <= MAX_TYPO_DISTANCE ? 1 + d : Infinity;
      return { name, score };
    })
    .filter((s) => s.score !== Infinity)
    .sort((x, y) => x.score - y.score);
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => relative(root, join(dir, s.name)));
}

import { NEAR_MATCH_MAX_CHARS } from './constants';

// When a SEARCH or old_string does not match, find the span of the file that most resembles it
// so the model can see what differs and retry. Cheap enough for big files: candidate positions
// come from lines that match after normalizing whitespace (each votes for where the span would
// start); only a handful of candidates are scored closely.

/** Candidate starts scored in detail. */
const MAX_CANDIDATES = 8;
/** Below this similarity the best span is not worth quoting. */
const MIN_SIMILARITY = 0.35;
/** Lines too short to say where a block is ("}", "", "end"). */
const MIN_ANCHOR_CHARS = 4;

export interface NearMatch {
  /** 1-based lines of the file span. */
  startLine: number;
  endLine: number;
  text: string;
  /** 0..1, line-averaged bigram similarity. */
  similarity: number;
  /** The span equals the search text once whitespace is normalized. */
  whitespaceOnly: boolean;
  /** 1-based line within the search text where the first difference is, with both versions. */
  firstDifference?: { line: number; file: string; search: string };
}

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of character bigrams (1 for equal strings). */
function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  let overlap = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = ga.get(g) ?? 0;
    if (n > 0) {
      overlap++;
      ga.set(g, n - 1);
    }
  }
  return (2 * overlap) / (a.length - 1 + b.length - 1);
}

function windowSimilarity(fileLines: string[], start: number, searchLines: string[]): number {
  let sum = 0;
  for (let i = 0; i < searchLines.length; i++)
    sum += dice(norm(fileLines[start + i] ?? ''), norm(searchLines[i]!));
  return sum / searchLines.length;
}

function candidateStarts(fileLines: string[], searchLines: string[]): number[] {
  const wanted = new Map<string, number[]>();
  searchLines.forEach((line, i) => {
    const n = norm(line);
    if (n.length >= MIN_ANCHOR_CHARS) wanted.set(n, [...(wanted.get(n) ?? []), i]);
  });
  const votes = new Map<number, number>();
  if (wanted.size > 0) {
    for (let j = 0; j < fileLines.length; j++) {
      const at = wanted.get(norm(fileLines[j]!));
      if (at) for (const i of at) votes.set(j - i, (votes.get(j - i) ?? 0) + 1);
    }
  }
  if (votes.size === 0) {
    // Nothing matches even loosely: rank lines by resemblance to the most distinctive search line.
    const probeIndex = searchLines.reduce(
      (best, l, i) => (norm(l).length > norm(searchLines[best]!).length ? i : best),
      0,
    );
    const probe = norm(searchLines[probeIndex]!);
    for (let j = 0; j < fileLines.length; j++) {
      const s = dice(norm(fileLines[j]!), probe);
      if (s > 0) votes.set(j - probeIndex, s);
    }
  }
  const maxStart = Math.max(0, fileLines.length - searchLines.length);
  return [...votes.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, MAX_CANDIDATES)
    .map(([s]) => Math.min(Math.max(0, s), maxStart));
}

export function findNearMatch(fileText: string, search: string): NearMatch | null {
  const searchLines = search.replace(/\n$/, '').split('\n');
  const fileLines = fileText.split('\n');
  if (fileText === '' || searchLines.every((l) => l.trim() === '')) return null;
  let best = -1;
  let bestScore = 0;
  for (const start of new Set(candidateStarts(fileLines, searchLines))) {
    const score = windowSimilarity(fileLines, start, searchLines);
    if (score > bestScore) {
      best = start;
      bestScore = score;
    }
  }
  if (best < 0 || bestScore < MIN_SIMILARITY) return null;
  const span = fileLines.slice(best, best + searchLines.length);
  let text = span.join('\n');
  if (text.length > NEAR_MATCH_MAX_CHARS)
    text = `${text.slice(0, NEAR_MATCH_MAX_CHARS)}\n... (near-match cut)`;
  const match: NearMatch = {
    startLine: best + 1,
    endLine: best + span.length,
    text,
    similarity: Math.round(bestScore * 100) / 100,
    whitespaceOnly:
      span.length === searchLines.length && span.every((l, i) => norm(l) === norm(searchLines[i]!)),
  };
  const diff = searchLines.findIndex((l, i) => l !== span[i]);
  if (diff >= 0)
    match.firstDifference = {
      line: diff + 1,
      file: span[diff] ?? '(end of file)',
      search: searchLines[diff]!,
    };
  return match;
}

/** The near-match as text for an error message. */
export function describeNearMatch(m: NearMatch | null): string {
  if (!m) return 'No similar text was found in the file; read it again before retrying.';
  const kind = m.whitespaceOnly
    ? 'differs only in whitespace'
    : `${Math.round(m.similarity * 100)}% similar`;
  const lines = [
    `Closest near-match, lines ${m.startLine}-${m.endLine} (${kind}):`,
    '```',
    m.text,
    '```',
  ];
  if (m.firstDifference) {
    const d = m.firstDifference;
    lines.push(
      `First difference at line ${d.line} of your text: file has ${JSON.stringify(d.file)}, you wrote ${JSON.stringify(d.search)}.`,
    );
  }
  return lines.join('\n');
}

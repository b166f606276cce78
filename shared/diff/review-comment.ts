import type { DiffRow } from './unified-diff';

// A reviewer's comment on lines of a session's diff, as the message the session receives: the
// file, the line numbers on each side, the lines themselves (with their +/- marks) and the
// comment. The model reads it as plain text, so the quote must say everything a reader of the
// diff saw: which side a number belongs to, and which lines were added or removed.

/** A line of the diff that was commented on (hunk headers and meta lines are not lines). */
export type QuotedLine = DiffRow & { kind: 'add' | 'del' | 'context' };

export interface ReviewComment {
  path: string;
  /** The commented lines, in the diff's order (at least one). */
  lines: QuotedLine[];
  comment: string;
}

const MARK: Record<QuotedLine['kind'], string> = { add: '+', del: '-', context: ' ' };

/** "line 4" or "lines 4–9" for the numbers of one side; null when the side has none. */
function span(numbers: number[]): string | null {
  if (!numbers.length) return null;
  const lo = Math.min(...numbers);
  const hi = Math.max(...numbers);
  return lo === hi ? `line ${lo}` : `lines ${lo}–${hi}`;
}

/** Where the comment is: the new side's lines, and the old side's where lines were removed. */
export function commentPlace(lines: readonly QuotedLine[]): string {
  const fresh = span(lines.flatMap((l) => (l.newLine === undefined ? [] : [l.newLine])));
  const old = span(
    lines.flatMap((l) => (l.newLine === undefined && l.oldLine !== undefined ? [l.oldLine] : [])),
  );
  if (fresh && old) return `${fresh} (and removed ${old} of the old version)`;
  if (fresh) return fresh;
  return `removed ${old ?? 'lines'} of the old version`;
}

/** A fence longer than any run of backticks in the quoted text, so no line can close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The message sent to the session: a heading naming the file and lines, the quoted lines as
 * `mark old new | text` (a side's number blank where the line does not exist there), then the
 * reviewer's words.
 */
export function reviewCommentMessage({ path, lines, comment }: ReviewComment): string {
  const width = Math.max(
    1,
    ...lines.map((l) => String(Math.max(l.oldLine ?? 0, l.newLine ?? 0)).length),
  );
  const num = (n: number | undefined) => (n === undefined ? '' : String(n)).padStart(width);
  const body = lines.map((l) => `${MARK[l.kind]} ${num(l.oldLine)} ${num(l.newLine)} | ${l.text}`);
  const fence = fenceFor(body.join('\n'));
  return [
    `Review comment on ${path}, ${commentPlace(lines)}:`,
    fence,
    `  ${'old'.padStart(width)} ${'new'.padStart(width)}`,
    ...body,
    fence,
    '',
    comment.trim(),
  ].join('\n');
}

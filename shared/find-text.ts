// Find in a conversation (Ctrl+F): the host counts matches in the pages the view has not loaded
// and the renderer in those it has, with this one rule, so the two counts add up.

/** Non-overlapping occurrences of `query` in `text`, ignoring case. */
export function countOccurrences(text: string, query: string): number {
  const q = query.toLowerCase();
  if (!q) return 0;
  const lower = text.toLowerCase();
  let n = 0;
  for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) n++;
  return n;
}

// Paints Ctrl+F's matches in the rows on screen with the CSS Custom Highlight API: ranges over the
// existing text nodes, so the markdown and the virtualized rows are drawn exactly as without a
// find (no wrapper elements that React would fight). Only message text is searched, as the
// counts are: a user message's text and an answer's markdown, not buttons or cards.

export const MATCH_HIGHLIGHT = 'find-match';
export const CURRENT_HIGHLIGHT = 'find-current';
/** The searched text inside a row (`data-seq` marks the row's message). */
const SEARCHED = '.msg.user > .msg-text, .msg.assistant > .md';

const supported = () => typeof CSS !== 'undefined' && 'highlights' in CSS;

/** Ranges of `query` in `el`'s text (outside buttons), in text order. */
function rangesIn(el: Element, query: string): Range[] {
  const out: Range[] = [];
  const q = query.toLowerCase();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) =>
      n.parentElement?.closest('button') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const lower = (node.nodeValue ?? '').toLowerCase();
    for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) {
      const r = document.createRange();
      r.setStart(node, at);
      r.setEnd(node, at + q.length);
      out.push(r);
    }
  }
  return out;
}

/**
 * Highlights every match of `query` under `root`, and match `target.k` of message `target.seq`
 * as the current one, which it returns (null while that row is not drawn).
 */
export function paintFind(
  root: Element,
  query: string,
  target: { seq: number; k: number } | null,
): Range | null {
  if (!supported()) return null;
  if (!query) {
    clearFind();
    return null;
  }
  const all: Range[] = [];
  let current: Range | null = null;
  for (const row of root.querySelectorAll<HTMLElement>('[data-seq]')) {
    const ranges = [...row.querySelectorAll(SEARCHED)].flatMap((el) => rangesIn(el, query));
    if (target && Number(row.dataset.seq) === target.seq)
      current = ranges[Math.min(target.k, ranges.length - 1)] ?? null;
    all.push(...ranges);
  }
  CSS.highlights.set(MATCH_HIGHLIGHT, new Highlight(...all));
  if (current) CSS.highlights.set(CURRENT_HIGHLIGHT, new Highlight(current));
  else CSS.highlights.delete(CURRENT_HIGHLIGHT);
  return current;
}

export function clearFind(): void {
  if (!supported()) return;
  CSS.highlights.delete(MATCH_HIGHLIGHT);
  CSS.highlights.delete(CURRENT_HIGHLIGHT);
}

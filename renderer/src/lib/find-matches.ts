import { countOccurrences } from '../../../shared/find-text';
import { SessionModel } from '../state/session-model';
import type { TimelineItem } from '../state/timeline-items';

// What Ctrl+F searches: the words of the conversation (your messages and the agent's answers),
// the same messages the host searches in the pages not loaded yet.

export interface MessageMatches {
  seq: number;
  count: number;
}

/** Messages among the drawn items that contain `query`, oldest first. */
export function messageMatches(items: readonly TimelineItem[], query: string): MessageMatches[] {
  if (!query) return [];
  const out: MessageMatches[] = [];
  for (const it of items) {
    if ((it.kind !== 'user' && it.kind !== 'assistant') || !SessionModel.visible(it)) continue;
    const count = countOccurrences(it.text, query);
    if (count) out.push({ seq: it.seq, count });
  }
  return out;
}

/** The position (0-based) of match `k` of message `seq` among all, or -1. */
export function positionOf(all: readonly MessageMatches[], seq: number, k: number): number {
  let before = 0;
  for (const m of all) {
    if (m.seq === seq) return k < m.count ? before + k : -1;
    before += m.count;
  }
  return -1;
}

/** The message and match at `position` (0-based) among all. */
export function matchAt(
  all: readonly MessageMatches[],
  position: number,
): { seq: number; k: number } | null {
  let left = position;
  for (const m of all) {
    if (left < m.count) return { seq: m.seq, k: left };
    left -= m.count;
  }
  return null;
}

import type { SessionEvent } from './events';

// A conversation rewind hides, from the model's context and the conversation view, the events from
// the user message it rewound to up to the rewind itself. The events stay in the log (it is
// append-only); undoing the rewind (a later `rewind` with `undo_of`) shows them again.

/** The seq ranges [from, to) hidden by rewinds that are in force. */
export function hiddenRanges(events: readonly SessionEvent[]): Array<[number, number]> {
  const ranges = new Map<number, [number, number]>();
  for (const e of events) {
    if (e.type !== 'rewind') continue;
    if (e.undo_of !== undefined) ranges.delete(e.undo_of);
    else if (e.mode !== 'files') ranges.set(e.seq, [e.to_seq, e.seq]);
  }
  return [...ranges.values()];
}

/** The events a conversation is made of once rewinds are applied (the log itself if none). */
export function visibleEvents<E extends SessionEvent>(events: readonly E[]): readonly E[] {
  const ranges = hiddenRanges(events);
  if (!ranges.length) return events;
  return events.filter((e) => !ranges.some(([from, to]) => e.seq >= from && e.seq < to));
}

/** The user messages of the visible conversation, in order: turn N is the Nth (1-based). */
export function userTurns<E extends SessionEvent>(
  events: readonly E[],
): Array<E & { type: 'user_message' }> {
  return visibleEvents(events).filter(
    (e): e is E & { type: 'user_message' } => e.type === 'user_message',
  );
}

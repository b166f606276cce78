import type { SessionEvent } from './events';

// A conversation rewind hides, from the model's context and the conversation view, the events from
// the user message it rewound to up to the rewind itself. The events stay in the log (it is
// append-only); undoing the rewind (a later `rewind` with `undo_of`) shows them again. A
// regenerate hides the answer it replaces (from just after its user message up to itself) from
// the model's context; the conversation view keeps it as an earlier version of the answer.

/** The seq ranges [from, to) hidden by rewinds in force and by regenerates. */
export function hiddenRanges(events: readonly SessionEvent[]): Array<[number, number]> {
  const ranges = new Map<number, [number, number]>();
  for (const e of events) {
    if (e.type === 'regenerate') ranges.set(e.seq, [e.from_seq, e.seq]);
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

/**
 * Where the answer to the user message `messageId` starts, for a regenerate: the seq just after
 * the message (and its command expansion). Null when that message is not the latest visible one
 * (only the latest turn's answer can be made again; an earlier one is a rewind) or has no answer.
 */
export function answerStart(events: readonly SessionEvent[], messageId: string): number | null {
  const visible = visibleEvents(events);
  const turns = userTurns(visible);
  const last = turns.at(-1);
  if (!last || last.message_id !== messageId) return null;
  const after = visible.find(
    (e) => e.seq > last.seq && !(e.type === 'command_expanded' && e.message_id === last.message_id),
  );
  return after ? after.seq : null;
}

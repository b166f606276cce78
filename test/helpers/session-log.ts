import fc from 'fast-check';
import type { LogSource } from '../../electron/host/agent/loop-state';
import type { RewindMode } from '../../shared/protocol/commands/checkpoints';
import type { SessionEvent, SessionEventBody } from '../../shared/protocol/events';

// A session log in memory, for the property tests of state that follows a log event by event
// (LoopState, TurnState) against a rebuild from the whole log; and the rewinds those tests play,
// the events that change a log's past.

/** Events numbered as the store numbers them: seq is the index. */
export class ArrayLog implements LogSource {
  readonly all: SessionEvent[] = [];
  get length(): number {
    return this.all.length;
  }
  events(from = 0): readonly SessionEvent[] {
    return this.all.slice(from);
  }
  append(body: SessionEventBody): SessionEvent {
    const e = { ...body, seq: this.all.length, ts: this.all.length } as SessionEvent;
    this.all.push(e);
    return e;
  }
}

/** A rewind to `to_seq` (with `undo_of`, the undo of the rewind at that seq) that restored nothing. */
export const rewind = (to_seq: number, mode: RewindMode, undo_of?: number): SessionEventBody => ({
  type: 'rewind',
  to_seq,
  mode,
  ...(undo_of !== undefined ? { undo_of } : {}),
  root: null,
  before_commit: null,
  after_commit: null,
  restored: [],
  created: [],
  deleted: [],
  kept: [],
  not_stored: [],
});

/** Random actions: a rewind to the `n`th user message in some mode, the undo of the `n`th rewind. */
export const rewindActions = [
  fc.record({
    k: fc.constant('rewind' as const),
    n: fc.nat(),
    mode: fc.constantFrom<RewindMode>('both', 'conversation', 'files'),
  }),
  fc.record({ k: fc.constant('undo' as const), n: fc.nat() }),
] as const;

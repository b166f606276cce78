import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SessionViewStore,
  type SessionViewState,
} from '../../../renderer/src/state/session-view-store';
import { SessionModel } from '../../../renderer/src/state/session-model';
import { SnapshotBuilder } from '../../../electron/host/store/snapshot-builder';
import type { SessionEvent, SessionEventBody } from '../../../shared/protocol/events';

// The renderer's side of paging: a view opened from the host's snapshot and newest window, then
// given older pages (as scrolling up does) and live events, ends up drawing exactly what a view
// built from the whole log draws.

const id = fc.integer({ min: 0, max: 4 });
const body: fc.Arbitrary<SessionEventBody> = fc.oneof(
  fc.string().map((text) => ({ type: 'user_message' as const, text, message_id: 'm' })),
  id.map((n) => ({
    type: 'tool_call' as const,
    call_id: `c${n}`,
    agent_id: 'root',
    name: 'read_file',
    args: {},
  })),
  id.map((n) => ({
    type: 'tool_result' as const,
    call_id: `c${n}`,
    agent_id: 'root',
    name: 'read_file',
    payload: { kind: 'text', text: 'x' },
  })),
  id.map((n) => ({
    type: 'question' as const,
    question_id: `q${n}`,
    call_id: `c${n}`,
    questions: [],
  })),
  id.map((n) => ({
    type: 'question_answer' as const,
    question_id: `q${n}`,
    answer: { answers: [] },
    delivery: 'in_place' as const,
  })),
  id.map((n) => ({ type: 'question_expired' as const, question_id: `q${n}` })),
  fc
    .constantFrom('ask', 'auto')
    .map((mode) => ({ type: 'mode_change' as const, mode: mode as 'ask' })),
  fc
    .constantFrom('running', 'idle', 'stopped')
    .map((state) => ({ type: 'run_state' as const, state: state as 'idle' })),
  fc.string().map((label) => ({
    type: 'todos' as const,
    items: [{ label, status: 'pending' as const }],
    source: 's',
    agent_id: 'root',
  })),
  id.map((n) => ({ type: 'shell_started' as const, shell_id: `sh${n}`, command: 'ls', cwd: '/' })),
  id.map((n) => ({
    type: 'shell_exited' as const,
    shell_id: `sh${n}`,
    exit_code: 1,
    signal: null,
  })),
  id.map((n) => ({
    type: 'panel' as const,
    ui_id: `u${n}`,
    call_id: 'c',
    spec: {},
    summary: 's',
    text: 't',
  })),
);

const drawn = (m: SessionModel | SessionViewState) =>
  m instanceof SessionModel
    ? {
        items: m.items.filter(SessionModel.visible),
        todos: m.todos,
        mode: m.mode,
        runState: m.runState,
        title: m.title,
        shells: [...m.shells.values()],
        length: m.length,
      }
    : {
        items: m.items,
        todos: m.todos,
        mode: m.mode,
        runState: m.runState,
        title: m.title,
        shells: m.shells,
        length: m.length,
      };

describe('paged session view', () => {
  it('window + older pages + live events draw what the whole log draws (random logs and page sizes)', () => {
    fc.assert(
      fc.property(
        fc.array(body, { maxLength: 120 }),
        fc.array(body, { maxLength: 10 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (bodies, live, window, pageSize) => {
          const s = new SessionViewStore();
          const events = bodies.map((b, seq) => ({ ...b, seq, ts: seq }) as SessionEvent);
          const snap = new SnapshotBuilder();
          for (const e of events) snap.apply(e);
          const start = Math.max(0, events.length - window);
          s.openWindow(snap.snapshot(), events.slice(start), start);
          // The window alone already shows the state the whole history left.
          const whole = new SessionModel();
          for (const e of events) whole.apply(e);
          const { items: _a, ...state } = drawn(s.state);
          const { items: _b, ...wholeState } = drawn(whole);
          expect(state).toEqual(wholeState);
          s.addEvents(
            live.map((b, i) => ({ ...b, seq: events.length + i, ts: 0 }) as SessionEvent),
          );
          for (let base = start; base > 0;) {
            const from = Math.max(0, base - pageSize);
            s.prependEvents(events.slice(from, base), from);
            // A page that arrives twice (a double scroll) changes nothing.
            s.prependEvents(events.slice(from, base), from);
            base = from;
          }
          const full = new SessionModel();
          for (const e of events) full.apply(e);
          for (const [i, b] of live.entries())
            full.apply({ ...b, seq: events.length + i, ts: 0 } as SessionEvent);
          expect(drawn(s.state)).toEqual(drawn(full));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a question still open whose card is older than the window is drawn from the snapshot', () => {
    const events = [
      { type: 'question', question_id: 'q1', call_id: 'c1', questions: [], seq: 0, ts: 0 },
      ...Array.from({ length: 5 }, (_, i) => ({
        type: 'user_message',
        text: `m${i}`,
        message_id: 'm',
        seq: i + 1,
        ts: 0,
      })),
    ] as SessionEvent[];
    const snap = new SnapshotBuilder();
    for (const e of events) snap.apply(e);
    const view = new SessionViewStore();
    view.openWindow(snap.snapshot(), events.slice(3), 3);
    const items = view.state.items;
    expect(items[0]).toMatchObject({ kind: 'question', questionId: 'q1', state: 'pending' });
    expect(items.filter((i) => i.kind === 'user')).toHaveLength(3);
  });
});

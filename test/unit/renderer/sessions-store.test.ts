import { beforeEach, describe, expect, it } from 'vitest';
import { useSessions } from '../../../renderer/src/state/sessions-store';
import type { SessionEvent } from '../../../shared/protocol/events';

const ev = (seq: number, body: Record<string, unknown>) =>
  ({ ...body, seq, ts: seq }) as SessionEvent;

describe('sessions store', () => {
  beforeEach(() => useSessions.setState({ views: {}, sessions: [], currentId: null }));

  it('streams assistant deltas by message and drops them when the finished message lands', () => {
    const s = useSessions.getState();
    s.addTransient('s1', {
      type: 'assistant_delta',
      message_id: 'm1',
      agent_id: 'root',
      text: 'Hel',
    });
    s.addTransient('s1', {
      type: 'assistant_delta',
      message_id: 'm1',
      agent_id: 'root',
      text: 'lo',
    });
    expect(useSessions.getState().views.s1!.streaming).toEqual({
      m1: { text: 'Hello', agentId: 'root' },
    });
    useSessions
      .getState()
      .addEvents('s1', [
        ev(0, { type: 'assistant_message', message_id: 'm1', agent_id: 'root', text: 'Hello' }),
      ]);
    const view = useSessions.getState().views.s1!;
    expect(view.streaming).toEqual({});
    expect(view.model.items.map((i) => i.kind)).toEqual(['assistant']);
  });

  it('clears half-streamed text when the run ends without its message (a stop)', () => {
    const s = useSessions.getState();
    s.addTransient('s1', {
      type: 'assistant_delta',
      message_id: 'm1',
      agent_id: 'root',
      text: 'partial',
    });
    s.addEvents('s1', [ev(0, { type: 'run_state', state: 'stopped' })]);
    expect(useSessions.getState().views.s1!.streaming).toEqual({});
  });

  it('bumps the version once per batch and not for a replayed duplicate', () => {
    const s = useSessions.getState();
    s.addEvents('s1', [
      ev(0, { type: 'user_message', text: 'a', message_id: 'u1' }),
      ev(1, { type: 'user_message', text: 'b', message_id: 'u2' }),
    ]);
    const v = useSessions.getState().views.s1!.version;
    s.addEvents('s1', [ev(1, { type: 'user_message', text: 'b', message_id: 'u2' })]);
    expect(useSessions.getState().views.s1!.version).toBe(v);
  });
});

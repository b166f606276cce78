import { describe, expect, it } from 'vitest';
import { SessionViewStore } from '../../../renderer/src/state/session-view-store';
import type { SessionEvent, TransientEvent } from '../../../shared/protocol/events';

// One session's view store: immutable parts that keep their identity until an event changes
// them. That identity is what makes render isolation work: a view re-renders only when the part
// it selected is a different object (zustand compares selections with Object.is).

const ev = (seq: number, body: Record<string, unknown>) =>
  ({ ...body, seq, ts: seq }) as SessionEvent;
const delta = (message_id: string, text: string): TransientEvent => ({
  type: 'assistant_delta',
  message_id,
  agent_id: 'root',
  text,
});
const thought = (message_id: string, text: string): TransientEvent => ({
  type: 'assistant_delta',
  message_id,
  agent_id: 'root',
  text,
  thinking: true,
});

describe('session view store', () => {
  it('streams assistant deltas by message and drops them when the finished message lands', () => {
    const v = new SessionViewStore();
    v.addTransients([delta('m1', 'Hel')]);
    v.addTransients([delta('m1', 'lo')]);
    expect(v.state.streaming).toEqual({ m1: { text: 'Hello', agentId: 'root' } });
    v.addEvents([
      ev(0, { type: 'assistant_message', message_id: 'm1', agent_id: 'root', text: 'Hello' }),
    ]);
    expect(v.state.streaming).toEqual({});
    expect(v.state.items.map((i) => i.kind)).toEqual(['assistant']);
  });

  it('streams an external agent’s thinking beside its answer, and the agent’s `/` commands as announced', () => {
    const v = new SessionViewStore();
    v.addTransients([thought('m1', 'Looking ')]);
    v.addTransients([thought('m1', 'around.'), delta('m1', 'Found it.')]);
    expect(v.state.streaming).toEqual({
      m1: { text: 'Found it.', agentId: 'root', thinking: 'Looking around.' },
    });
    v.addEvents([
      ev(0, {
        type: 'agent_commands',
        commands: [{ name: 'review', description: 'Review', hint: '[path]' }],
      }),
    ]);
    expect(v.state.agentCommands).toEqual([
      { name: 'review', description: 'Review', hint: '[path]' },
    ]);
  });

  it('clears half-streamed text when the run ends without its message (a stop)', () => {
    const v = new SessionViewStore();
    v.addTransients([delta('m1', 'partial')]);
    v.addEvents([ev(0, { type: 'run_state', state: 'stopped' })]);
    expect(v.state.streaming).toEqual({});
  });

  it("keeps a running call's latest progress until its result lands, and none after a stop", () => {
    const v = new SessionViewStore();
    const progress = (call_id: string, n: number): TransientEvent => ({
      type: 'tool_progress',
      call_id,
      agent_id: 'root',
      progress: n,
      total: 3,
      message: `step ${n}`,
    });
    v.addTransients([progress('c1', 1), progress('c2', 1)]);
    v.addTransients([progress('c1', 2)]);
    expect(v.state.progress).toEqual({
      c1: { progress: 2, total: 3, message: 'step 2' },
      c2: { progress: 1, total: 3, message: 'step 1' },
    });
    v.addEvents([
      ev(0, { type: 'tool_call', call_id: 'c1', agent_id: 'root', name: 'mcp__s__t', args: {} }),
      ev(1, {
        type: 'tool_result',
        call_id: 'c1',
        agent_id: 'root',
        name: 'mcp__s__t',
        payload: { kind: 'mcp_result' },
      }),
    ]);
    expect(Object.keys(v.state.progress)).toEqual(['c2']);
    v.addEvents([ev(2, { type: 'run_state', state: 'stopped' })]);
    expect(v.state.progress).toEqual({});
  });

  it('a replayed duplicate publishes nothing', () => {
    const v = new SessionViewStore();
    v.addEvents([
      ev(0, { type: 'user_message', text: 'a', message_id: 'u1' }),
      ev(1, { type: 'user_message', text: 'b', message_id: 'u2' }),
    ]);
    const before = v.state;
    let published = 0;
    v.store.subscribe(() => published++);
    v.addEvents([ev(1, { type: 'user_message', text: 'b', message_id: 'u2' })]);
    expect(published).toBe(0);
    expect(v.state).toBe(before);
  });

  it('a streamed delta changes only the streaming part: every other part is the same object', () => {
    const v = new SessionViewStore();
    v.addEvents([
      ev(0, { type: 'user_message', text: 'hi', message_id: 'u1' }),
      ev(1, { type: 'run_state', state: 'running' }),
      ev(2, { type: 'shell_started', shell_id: 'sh1', command: 'ls', cwd: '/' }),
      ev(3, { type: 'todos', agent_id: 'root', source: 's', items: [] }),
    ]);
    const before = v.state;
    v.addTransients([delta('m1', 'a token')]);
    const after = v.state;
    expect(after.streaming).not.toBe(before.streaming);
    for (const key of Object.keys(before) as Array<keyof typeof before>)
      if (key !== 'streaming') expect(after[key], key).toBe(before[key]);
  });

  it('a tool result replaces its own item and leaves every other item the same object', () => {
    const v = new SessionViewStore();
    v.addEvents([
      ev(0, { type: 'user_message', text: 'read it', message_id: 'u1' }),
      ev(1, { type: 'tool_call', call_id: 'c1', agent_id: 'root', name: 'read_file', args: {} }),
      ev(2, { type: 'assistant_message', message_id: 'm1', agent_id: 'root', text: 'Reading' }),
    ]);
    const [user, tool, answer] = v.state.items;
    v.addEvents([
      ev(3, {
        type: 'tool_result',
        call_id: 'c1',
        agent_id: 'root',
        name: 'read_file',
        payload: { kind: 'text', text: 'x' },
      }),
    ]);
    const items = v.state.items;
    expect(items[0]).toBe(user);
    expect(items[2]).toBe(answer);
    expect(items[1]).not.toBe(tool);
    expect(items[1]).toMatchObject({ kind: 'tool', result: { kind: 'text' } });
  });

  it('an event that changes no drawn part keeps the parts: usage changes only the usage', () => {
    const v = new SessionViewStore();
    v.addEvents([ev(0, { type: 'user_message', text: 'hi', message_id: 'u1' })]);
    const before = v.state;
    v.addEvents([
      ev(1, {
        type: 'usage',
        agent_id: 'root',
        model: 'm',
        input_tokens: 10,
        output_tokens: 5,
        context_window: 100,
      }),
    ]);
    expect(v.state.items).toBe(before.items);
    expect(v.state.shells).toBe(before.shells);
    expect(v.state.usage).not.toBe(before.usage);
    expect(v.state.usage.fill).toBeCloseTo(0.15);
  });
  it('a rebuilt projection keeps the answer version the user chose; a new regenerate shows its answer', () => {
    const answer = (seq: number, text: string) =>
      ev(seq, { type: 'assistant_message', message_id: `a${seq}`, agent_id: 'root', text });
    const texts = (v: SessionViewStore) =>
      v.state.items.filter((i) => i.kind === 'assistant').map((i) => ('text' in i ? i.text : ''));
    const v = new SessionViewStore();
    // The newest page from seq 1: the first answer, the regenerate, the second answer.
    v.openWindow(
      null,
      [
        answer(1, 'first'),
        ev(2, { type: 'regenerate', message_id: 'u', from_seq: 1 }),
        answer(3, 'second'),
      ],
      1,
    );
    expect(texts(v)).toEqual(['second']);
    v.showVersion(1, 0);
    expect(texts(v)).toEqual(['first']);
    // An older page arrives (or the topic's snapshot): the projection is rebuilt from the events.
    v.prependEvents([ev(0, { type: 'user_message', text: 'q', message_id: 'u' })], 0);
    expect(texts(v)).toEqual(['first']);
    // Regenerated again: the new answer shows, whatever was chosen before.
    v.addEvents([ev(4, { type: 'regenerate', message_id: 'u', from_seq: 1 }), answer(5, 'third')]);
    expect(texts(v)).toEqual(['third']);
  });
});

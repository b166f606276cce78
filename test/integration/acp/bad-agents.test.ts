import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../agent/harness';
import { AcpWorld } from './acp-harness';

// Issue 30 part 5: an external agent that exits, hangs, sends what is not JSON-RPC or floods
// updates gets a clear error in its session, the host carries on, and Stop ends the turn.

/** 10,050 notifications through a real pipe: seconds on an idle machine, more on a loaded one. */
const FLOOD_TURN_MS = 120_000;

let w: AcpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const chunk = (text: string) => ({
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});

describe('an external agent behaving badly', () => {
  it('that exits mid-turn fails the turn with its exit and last output; the next turn starts it again', async () => {
    w = await AcpWorld.start({ turns: [[chunk('partial answer'), { exitOnce: 3 }, chunk('ok')]] });
    const id = await w.session();
    const failed = await w.turn(id, 'one');
    const error = ofType(failed, 'error')[0]!;
    expect(error.code).toBe('agent_failed');
    expect(error.message).toContain("the agent 'scripted' exited (code 3)");
    expect(error.message).toContain('exiting on purpose');
    expect(ofType(failed, 'run_state').at(-1)).toMatchObject({ state: 'failed' });
    // What it had said before it died is kept.
    expect(ofType(failed, 'assistant_message')[0]!.text).toBe('partial answer');
    const again = await w.turn(id, 'two');
    expect(ofType(again, 'assistant_message').map((m) => m.text)).toEqual(['partial answerok']);
    expect(ofType(again, 'run_state').at(-1)).toMatchObject({ state: 'idle' });
  });

  it('that writes lines that are not JSON-RPC does not take the session down', async () => {
    w = await AcpWorld.start({
      turns: [
        [
          { garbage: 'this is not json' },
          { garbage: '{"jsonrpc":"2.0","method":' },
          chunk('still here'),
        ],
      ],
    });
    const id = await w.session();
    const events = await w.turn(id, 'go');
    if (ofType(events, 'run_state').at(-1)!.state === 'failed')
      expect(ofType(events, 'error')[0]!.message).toMatch(/agent 'scripted'/);
    else expect(ofType(events, 'assistant_message')[0]!.text).toBe('still here');
    // The host still serves the session: another turn runs.
    const next = await w.turn(id, 'again');
    expect(ofType(next, 'run_state').at(-1)!.state).not.toBe('running');
  });

  it(
    'that floods updates has the rest of its turn dropped with one error',
    { timeout: FLOOD_TURN_MS + 30_000 },
    async () => {
      w = await AcpWorld.start({ turns: [[{ flood: 10_050 }]] });
      const id = await w.session();
      const events = await w.turn(id, 'go', FLOOD_TURN_MS);
      const errors = ofType(events, 'error');
      expect(errors.map((e) => e.code)).toEqual(['agent_flood']);
      expect(errors[0]!.message).toContain('more than 10000 updates');
      expect(ofType(events, 'assistant_message')[0]!.text.length).toBe(10_000);
      expect(ofType(events, 'run_state').at(-1)).toMatchObject({ state: 'idle' });
    },
  );

  it('that hangs is cancelled by Stop, and the turn ends', async () => {
    w = await AcpWorld.start({ turns: [[chunk('working'), { hang: {} }]] });
    const id = await w.session();
    await w.h.invoke('sessions.send', { id, text: 'go', capabilities: [] });
    await w.recorded((rec) => rec.some((r) => r.method === 'session/prompt'), 'the prompt');
    await w.h.invoke('sessions.stop', { id });
    const events = await w.settled(id);
    expect(ofType(events, 'run_state').at(-1)).toMatchObject({ state: 'stopped' });
    expect(w.record().some((r) => r.method === 'session/cancel')).toBe(true);
  });

  it('that ignores session/cancel still has its turn ended by Stop, and is started again', async () => {
    w = await AcpWorld.start({ turns: [[{ hang: { ignoreCancel: true } }]] });
    const id = await w.session();
    await w.h.invoke('sessions.send', { id, text: 'go', capabilities: [] });
    await w.recorded((rec) => rec.some((r) => r.method === 'session/prompt'), 'the prompt');
    await w.h.invoke('sessions.stop', { id });
    const stopped = await w.settled(id);
    expect(ofType(stopped, 'run_state').at(-1)).toMatchObject({ state: 'stopped' });
    expect(w.record().filter((r) => r.method === 'initialize')).toHaveLength(1);
    await w.h.invoke('sessions.send', { id, text: 'again', capabilities: [] });
    await w.recorded(
      (rec) => rec.filter((r) => r.method === 'session/prompt').length === 2,
      'the second prompt',
    );
    // A second process answered it: the first one was closed.
    expect(w.record().filter((r) => r.method === 'initialize')).toHaveLength(2);
    await w.h.invoke('sessions.stop', { id });
  });

  it('that is not configured is refused when the session is made, naming what there is', async () => {
    w = await AcpWorld.start({ turns: [] });
    const err = await w.h.invokeError('sessions.create', { project: 'proj', agent: 'nope' });
    expect(err.code).toBe('no_agent');
    expect(err.message).toContain("no agent 'nope'");
    expect(err.message).toContain('scripted');
  });
});

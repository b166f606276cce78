import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import { Harness } from './harness';

// A stop mid-answer keeps what the user already read: the streamed text is recorded as an
// assistant message marked stopped, before the run says it stopped.

describe('stopping a run mid-answer', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('records the partial answer as a stopped assistant message', async () => {
    h = await Harness.start();
    h.script.push({ text: 'First half of the answer. ', hang: true });
    const id = await h.newSession();
    const full = 'First half of the answer. ';
    let streamed = '';
    let sawAll!: () => void;
    const delta = new Promise<void>((r) => (sawAll = r));
    const sub = await h.host.router.subscribe(
      `session:${id}`,
      0,
      (item) => {
        const d = item as { type?: string; text?: string };
        if (d.type !== 'assistant_delta') return;
        streamed += d.text;
        if (streamed === full) sawAll();
      },
      { clientId: 'watch', transport: 'local' },
    );
    await h.invoke('sessions.send', { id, text: 'Explain', capabilities: [] });
    await delta;
    await h.invoke('sessions.stop', { id });
    const events = await h.waitFor(
      id,
      (es) => es.some((e) => e.type === 'run_state' && e.state === 'stopped'),
      'the stop',
    );
    await sub.dispose();
    const answer = events.find(
      (e): e is Extract<SessionEvent, { type: 'assistant_message' }> =>
        e.type === 'assistant_message',
    );
    expect(answer?.text).toBe(full);
    expect(answer?.stopped).toBe(true);
    const at = (t: string) =>
      events.findIndex(
        (e) => e.type === t && (t !== 'run_state' || (e as { state?: string }).state === 'stopped'),
      );
    expect(at('assistant_message')).toBeLessThan(at('run_state'));
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { Harness } from './harness';

// #17.3: sessions are named by what they are about and found by what was said in them.

describe('session titles and search', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('the first message titles an untitled session; later messages and a user rename are kept', async () => {
    h = await Harness.start();
    h.script.push({ text: 'Sure.' }, { text: 'Done.' });
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: 'Make the port configurable\nthen run the tests',
      capabilities: [],
    });
    const listed = async () =>
      (await h.invoke('sessions.list', {})).sessions.find((s) => s.id === id)!.title;
    expect(await listed()).toBe('Make the port configurable');
    await h.waitFor(id, (es) => es.some((e) => e.type === 'run_state' && e.state === 'idle'));
    await h.invoke('sessions.send', { id, text: 'Also the host', capabilities: [] });
    expect(await listed()).toBe('Make the port configurable');

    const named = (await h.invoke('sessions.create', { project: 'proj', title: 'Mine' })).session;
    await h.invoke('sessions.send', { id: named.id, text: 'Something else', capabilities: [] });
    expect(
      (await h.invoke('sessions.list', {})).sessions.find((s) => s.id === named.id)!.title,
    ).toBe('Mine');
  });

  it('search finds a session by a word the agent said, not in its title', async () => {
    h = await Harness.start();
    h.script.push({ text: 'The flaky part is the reconnect backoff in the transport.' });
    const id = await h.newSession();
    const other = await h.newSession();
    await h.invoke('sessions.send', { id, text: 'Why is CI red?', capabilities: [] });
    await h.waitFor(id, (es) => es.some((e) => e.type === 'assistant_message'));
    const r = await h.invoke('sessions.search', { query: 'BACKOFF' });
    expect(r.hits.map((x) => x.id)).toEqual([id]);
    expect(r.hits[0]!.snippet).toContain('reconnect backoff');
    expect(r.hits.some((x) => x.id === other)).toBe(false);
  });
});

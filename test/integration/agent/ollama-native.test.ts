import { afterEach, describe, expect, it } from 'vitest';
import type { FakeOllama } from '../../helpers/fake-ollama';
import { Harness, ofType } from './harness';

// Ollama through its native /api/chat: num_ctx is the window the app budgets for, so a long
// conversation is never cut to Ollama's small default in silence.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Ollama native API', () => {
  it('sends options.num_ctx from /api/show (capped), runs a tool loop over NDJSON, and nothing is truncated', async () => {
    h = await Harness.start({
      wire: 'ollama',
      files: { 'big.txt': 'a line of x characters xxxxxxxxxxxxxxxx\n'.repeat(1000) },
      config: { permission_mode: 'auto' },
    });
    const fake = h.fake as FakeOllama;
    h.script.push(
      { thinking: 'read it', toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      { text: 'It is all x.' },
    );
    const id = await h.newSession();
    await h.send(id, 'what is in big.txt?');
    const events = await h.waitRunEnd(id);
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('It is all x.');
    // qwen3:8b reports 40,960; the automatic window is capped at 32,768.
    for (const r of fake.requests) {
      expect(r.path).toBe('/api/chat');
      expect(r.body.options.num_ctx).toBe(32_768);
    }
    // The second request holds the 40,000-character file: over Ollama's default 4096 tokens.
    expect(JSON.stringify(fake.requests[1]!.body.messages).length / 4).toBeGreaterThan(4096);
    expect(fake.truncated).toBe(0);
    const tool = fake.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_name: 'read_file' });
    const usage = ofType(events, 'usage').filter((u) => u.agent_id === 'root');
    expect(usage[0]).toMatchObject({
      provider: 'ollama',
      model: 'qwen3:8b',
      context_window: 32_768,
    });
    expect(usage[1]!.input_tokens).toBeGreaterThan(4096);
  });

  it('providers.ollama.num_ctx wins over /api/show, and the fake does truncate without it (not vacuous)', async () => {
    h = await Harness.start({
      wire: 'ollama',
      config: { providers: { ollama: { num_ctx: 65_536 } } },
    });
    const fake = h.fake as FakeOllama;
    h.script.push({ text: 'hi' });
    const id = await h.newSession();
    await h.send(id, 'hello');
    await h.waitRunEnd(id);
    expect(fake.requests[0]!.body.options.num_ctx).toBe(65_536);
    // The same long prompt without num_ctx is cut by the server.
    const res = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'qwen3:8b',
        messages: [{ role: 'user', content: 'y'.repeat(40_000) }],
      }),
    });
    await res.text();
    expect(fake.truncated).toBe(1);
  });

  it('lists the models from /api/tags', async () => {
    h = await Harness.start({ wire: 'ollama' });
    expect(await h.invoke('models.list', { provider: 'ollama' })).toEqual({ models: ['qwen3:8b'] });
    const status = await h.invoke('models.status', {});
    expect(status.selected).toMatchObject({ provider: 'ollama', model: 'qwen3:8b' });
    // The root, not /v1.
    expect(status.providers.find((p) => p.id === 'ollama')!.base_url).toBe(
      (h.fake as FakeOllama).url,
    );
  });
});

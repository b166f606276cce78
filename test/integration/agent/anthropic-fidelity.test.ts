/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever JSON was sent */
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

// The Messages API used the way its documentation intends, proved against the fake server (which
// refuses what the real API refuses: more than 4 breakpoints, a changed thinking signature, a tool
// loop that lost its thinking).

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const breakpoints = (body: any) => {
  const marks: string[] = [];
  (body.tools ?? []).forEach((t: any) => t.cache_control && marks.push(`tool:${t.name}`));
  (body.system ?? []).forEach((b: any, i: number) => b.cache_control && marks.push(`system:${i}`));
  body.messages.forEach((m: any, i: number) =>
    m.content.forEach((b: any, j: number) => b.cache_control && marks.push(`msg:${i}:${j}`)),
  );
  return marks;
};

const readCalls = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    toolCalls: [{ name: 'read_file', args: { path: `f${i}.txt` } }],
  }));

describe('Anthropic Messages', () => {
  it('marks the tools, the system prompt and the two newest user turns, and the breakpoints move forward so each request reads the previous one from the cache', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, `content ${i}\n`.repeat(200)]),
    );
    h = await Harness.start({ files, cache: { minTokens: 1024 } });
    h.script.push(...readCalls(4), { text: 'all read' });
    const id = await h.newSession();
    await h.send(id, 'read the four files');
    const events = await h.waitRunEnd(id);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('all read');

    const bodies = h.fake.requests.map((r) => r.body);
    expect(bodies).toHaveLength(5);
    let previousLast = '';
    for (const [n, body] of bodies.entries()) {
      const marks = breakpoints(body);
      expect(marks.length).toBeLessThanOrEqual(4);
      expect(marks[0]).toMatch(/^tool:/);
      expect(marks).toContain('system:0');
      // The newest user message's last block carries a breakpoint...
      const lastMsg = body.messages.length - 1;
      const newest = `msg:${lastMsg}:${body.messages[lastMsg].content.length - 1}`;
      expect(marks.at(-1)).toBe(newest);
      // ...and the one before sits where the previous request's newest was.
      if (n > 0) expect(marks).toContain(previousLast);
      previousLast = newest;
    }
    const usage = ofType(events, 'usage').filter((u) => u.agent_id === 'root');
    expect(usage).toHaveLength(5);
    expect(usage[0]!.cache_write_tokens).toBeGreaterThan(0);
    for (const u of usage.slice(1)) {
      expect(u.cache_read_tokens).toBeGreaterThan(0);
      // Everything but the newest turn was read back, the turn itself written.
      expect(u.cache_read_tokens! + u.cache_write_tokens!).toBeGreaterThan(0.9 * u.input_tokens);
    }
    for (const u of usage) {
      expect(u.context_window).toBe(200_000);
      expect(u.compact_at_tokens).toBeGreaterThan(0);
      expect(u.cost_usd).toBeGreaterThan(0);
    }
  });

  it('with thinking on, thinking and redacted_thinking blocks go back byte for byte, with their signatures, across tool-use turns', async () => {
    h = await Harness.start({
      files: { 'a.txt': 'alpha\n' },
      config: { model: { thinking: { type: 'enabled', budget_tokens: 2048 } } },
    });
    // Unicode, quotes, trailing spaces and newlines: anything a re-encoding could change.
    const thought = 'Let me think… about "a.txt" \\n — ünïcödé  \n\n  trailing ';
    h.script.push(
      {
        thinking: thought,
        redactedThinking: 'EncryptedOpaqueData+/==',
        toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }],
      },
      { thinking: 'second thought', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'done' },
    );
    const id = await h.newSession();
    await h.send(id, 'read a.txt twice');
    const events = await h.waitRunEnd(id);
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('done');

    const [first, second, third] = h.fake.requests.map((r) => r.body);
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(first.max_tokens).toBeGreaterThan(2048);
    const sentBack = second.messages[1].content;
    expect(sentBack[0]).toEqual({
      type: 'thinking',
      thinking: thought,
      signature: expect.any(String),
    });
    expect(sentBack[0].thinking).toBe(thought);
    expect(sentBack[1]).toEqual({ type: 'redacted_thinking', data: 'EncryptedOpaqueData+/==' });
    expect(sentBack[2].type).toBe('tool_use');
    // The third request still carries both turns' blocks, unchanged.
    expect(third.messages[1].content.slice(0, 2)).toEqual(sentBack.slice(0, 2));
    expect(third.messages[3].content[0].thinking).toBe('second thought');
    // The log keeps them for a restarted host.
    const msg = ofType(events, 'assistant_message')[0]!;
    expect(msg.reasoning?.items[0]).toEqual(sentBack[0]);
  });

  it('a changed signature is refused by the server (the round trip above is not vacuous)', async () => {
    h = await Harness.start({
      config: { model: { thinking: { type: 'enabled', budget_tokens: 2048 } } },
    });
    h.script.push({ thinking: 'x', toolCalls: [{ name: 'list_dir', args: { path: '.' } }] });
    const id = await h.newSession();
    await h.send(id, 'go');
    await h.waitRunEnd(id);
    // Tamper with the stored reasoning the way a lossy round trip would, then continue.
    const body = structuredClone(h.fake.requests[0]!.body);
    body.messages.push(
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'x ', signature: 'bad' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    );
    const res = await fetch(`${h.fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/signature/);
  });

  it('pause_turn sends the paused turn back as the last message and the model carries on', async () => {
    h = await Harness.start();
    h.script.push({ text: 'Working on it', stopReason: 'pause_turn' }, { text: ' and finished.' });
    const id = await h.newSession();
    await h.send(id, 'long task');
    const events = await h.waitRunEnd(id);
    const second = h.fake.requests[1]!.body;
    const last = second.messages.at(-1);
    expect(last.role).toBe('assistant');
    expect(last.content).toEqual([{ type: 'text', text: 'Working on it' }]);
    expect(ofType(events, 'assistant_message').map((m) => m.text)).toEqual([
      'Working on it',
      ' and finished.',
    ]);
    expect(ofType(events, 'run_state').at(-1)!.state).toBe('idle');
  });

  it('refusal and max_tokens end the turn with a notice that says why', async () => {
    h = await Harness.start();
    h.script.push({ text: 'I cannot help with that.', stopReason: 'refusal' });
    const id = await h.newSession();
    await h.send(id, 'bad request');
    let events = await h.waitRunEnd(id);
    expect(ofType(events, 'assistant_message')[0]!.stop_reason).toBe('refusal');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'refusal' });
    h.script.push({ text: 'A very long answ', stopReason: 'max_tokens' });
    const from = await h.send(id, 'write a lot');
    events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'error').at(-1)).toMatchObject({
      code: 'max_tokens',
      message: expect.stringMatching(/output limit/),
    });
  });

  it('an image sent with a message reaches the model as an image block', async () => {
    h = await Harness.start();
    h.script.push({ text: 'a red pixel' });
    const id = await h.newSession();
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    await h.invoke('sessions.send', {
      id,
      text: 'what is this?',
      images: [{ media_type: 'image/png', data: png }],
      capabilities: [],
    });
    await h.waitRunEnd(id);
    const content = h.fake.requests[0]!.body.messages[0].content;
    expect(content[0]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png },
    });
    expect(content[1]).toMatchObject({ type: 'text', text: 'what is this?' });
  });
});

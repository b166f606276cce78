/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever JSON was sent */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { OpenAiProvider } from '../../../electron/host/models/openai';
import { OpenAiResponsesProvider } from '../../../electron/host/models/openai-responses';
import { selectModel } from '../../../electron/host/models/select-model';
import { Harness, ofType } from './harness';

// GPT-5 / o-series / Codex through the Responses API, against a fake that speaks its SSE events
// and, like the real API with store false, refuses a function_call that lost its reasoning item.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const noSecrets = { get: async () => undefined, set: async () => {}, delete: async () => {} };

describe('OpenAI Responses', () => {
  it('reasoning items (encrypted content) are carried, in place and unchanged, into the next request across tool calls', async () => {
    h = await Harness.start({
      wire: 'openai',
      files: { 'a.txt': 'alpha\n' },
      config: { providers: { openai: { api: 'responses' } }, model: { reasoning_effort: 'high' } },
    });
    h.script.push(
      { thinking: 'plan: read a.txt', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { thinking: 'again, to be sure', toolCalls: [{ name: 'list_dir', args: { path: '.' } }] },
      { text: 'It says alpha.' },
    );
    const id = await h.newSession();
    await h.send(id, 'what does a.txt say?');
    const events = await h.waitRunEnd(id);
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('It says alpha.');

    const [first, second, third] = h.fake.requests;
    expect(first!.path).toBe('/v1/responses');
    expect(first!.body).toMatchObject({
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high' },
    });
    const issued = ofType(events, 'assistant_message')[0]!.reasoning!;
    expect(issued.provider).toBe('openai');
    const sent = second!.body.input as any[];
    const at = sent.findIndex((i) => i.type === 'reasoning');
    expect(sent[at]).toEqual(issued.items[0]);
    expect(sent[at].encrypted_content).toEqual(expect.any(String));
    expect(sent[at + 1]).toMatchObject({ type: 'function_call', name: 'read_file' });
    expect(sent[at + 2]).toMatchObject({ type: 'function_call_output' });
    expect(sent[at + 2].output).toContain('alpha');
    // Both turns' reasoning reach the third request.
    expect((third!.body.input as any[]).filter((i) => i.type === 'reasoning')).toHaveLength(2);

    const usage = ofType(events, 'usage').filter((u) => u.agent_id === 'root');
    expect(usage[0]).toMatchObject({ cache_read_tokens: 50, reasoning_tokens: 7 });
  });

  it('the fake refuses a function_call sent back without its reasoning item (the carry above is not vacuous)', async () => {
    h = await Harness.start({
      wire: 'openai',
      files: { 'a.txt': 'alpha\n' },
      config: { providers: { openai: { api: 'responses' } } },
    });
    h.script.push(
      { thinking: 'hmm', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'ok' },
    );
    const id = await h.newSession();
    await h.send(id, 'go');
    await h.waitRunEnd(id);
    const body = structuredClone(h.fake.requests[1]!.body);
    body.input = body.input.filter((i: any) => i.type !== 'reasoning');
    const res = await fetch(`${(h.fake as any).baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/without its required 'reasoning' item/);
  });

  it('max_output_tokens ends the turn with a max_tokens notice', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: { providers: { openai: { api: 'responses' } } },
    });
    h.script.push({ text: 'cut sho', stopReason: 'max_tokens' });
    const id = await h.newSession();
    await h.send(id, 'write');
    const events = await h.waitRunEnd(id);
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'max_tokens' });
  });

  it('GPT-5, o-series and Codex at api.openai.com use Responses; a compatible server and other models keep Chat Completions', async () => {
    const pick = async (raw: object, env: NodeJS.ProcessEnv) => {
      const s = await selectModel({
        cfg: parseConfig(raw),
        env: { OLLAMA_BASE_URL: 'http://127.0.0.1:9', ...env },
        secrets: noSecrets,
      });
      if (!s.ok) throw new Error(s.message);
      return s.provider;
    };
    const key = { OPENAI_API_KEY: 'sk-x' };
    for (const name of ['gpt-5', 'o3', 'gpt-5-codex', 'codex-mini-latest'])
      expect(await pick({ model: { name, provider: 'openai' } }, key)).toBeInstanceOf(
        OpenAiResponsesProvider,
      );
    expect(await pick({ model: { name: 'gpt-4.1', provider: 'openai' } }, key)).toBeInstanceOf(
      OpenAiProvider,
    );
    expect(
      await pick(
        { model: { name: 'gpt-5' } },
        { ...key, OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1' },
      ),
    ).toBeInstanceOf(OpenAiProvider);
    expect(
      await pick({ model: { name: 'gpt-5' }, providers: { openai: { api: 'chat' } } }, key),
    ).toBeInstanceOf(OpenAiProvider);
  });
});

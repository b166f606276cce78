import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../electron/host/models/anthropic';
import { OllamaProvider } from '../../../electron/host/models/ollama';
import { OpenAiResponsesProvider } from '../../../electron/host/models/openai-responses';
import type { RetryPolicy } from '../../../electron/host/models/http';
import type { ModelProvider, ModelRequest } from '../../../electron/host/models/types';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { FakeOllama } from '../../helpers/fake-ollama';
import { FakeOpenAi } from '../../helpers/fake-openai';

// The scaffolding the three SDK providers share (sdk-stream.ts), through each of them against its
// own wire: retries before the reply starts, a stop that reaches a reply in progress, a stream that
// ends without its end marker, and the stop between the request and its first byte.

const FAST_RETRY = { attempts: 3, baseDelayMs: 1 };
const request: ModelRequest = {
  system: 'You are a test.',
  messages: [{ role: 'user', text: 'hi' }],
  tools: [],
  maxTokens: 1000,
};

let anthropic: FakeAnthropic;
let openai: FakeOpenAi;
let ollama: FakeOllama;
beforeAll(async () => {
  [anthropic, openai, ollama] = await Promise.all([
    FakeAnthropic.start(),
    FakeOpenAi.start({ apiKey: 'sk-test' }),
    FakeOllama.start(),
  ]);
});
afterAll(async () => {
  await Promise.all([anthropic.close(), openai.close(), ollama.close()]);
});

const wires: {
  name: string;
  make(retry?: RetryPolicy): ModelProvider;
  fake(): FakeAnthropic | FakeOpenAi | FakeOllama;
  /** What a stream without its end marker fails with. */
  ended: { code: string; message: string };
}[] = [
  {
    name: 'Anthropic',
    make: (retry = FAST_RETRY) =>
      new AnthropicProvider({
        baseUrl: anthropic.url,
        apiKey: 'test-key',
        model: 'claude-test',
        contextWindow: 200_000,
        retry,
      }),
    fake: () => anthropic,
    ended: { code: 'network', message: 'Anthropic stream ended before message_stop' },
  },
  {
    name: 'OpenAI Responses',
    make: (retry = FAST_RETRY) =>
      new OpenAiResponsesProvider({
        baseUrl: openai.baseUrl,
        apiKey: 'sk-test',
        model: 'gpt-5',
        contextWindow: 400_000,
        retry,
      }),
    fake: () => openai,
    ended: { code: 'network', message: 'OpenAI stream ended before response.completed' },
  },
  {
    name: 'Ollama',
    make: (retry = FAST_RETRY) =>
      new OllamaProvider({
        baseUrl: ollama.url,
        model: 'qwen3:8b',
        contextWindow: 32_768,
        retry,
      }),
    fake: () => ollama,
    // The ollama client notices the missing `done` itself and throws while streaming.
    ended: {
      code: 'server',
      message: 'Ollama stream error: Did not receive done or success response in stream.',
    },
  },
];

describe.each(wires)('$name through the shared SDK stream', ({ make, fake, ended }) => {
  it('a 500 before the reply starts is retried; the streamed text arrives whole', async () => {
    fake().script.push({ error: { status: 500, message: 'boom' } }, { text: 'second try' });
    const deltas: string[] = [];
    const turn = await make().complete(request, new AbortController().signal, {
      onText: (d) => deltas.push(d),
    });
    expect(turn.text).toBe('second try');
    expect(deltas.join('')).toBe('second try');
    expect(turn.stopReason).toBe('end_turn');
  });

  it('a stream that ends without its end marker is an error, not a short answer', async () => {
    fake().script.push({ text: 'partial answer', truncate: true });
    const err = await make()
      .complete(request, new AbortController().signal)
      .catch((e) => e);
    expect(err).toMatchObject(ended);
  });

  it('a stop while the reply streams ends the call as stopped', async () => {
    fake().script.push({ text: 'streaming and then silent', hang: true });
    const ac = new AbortController();
    const pending = make()
      .complete(request, ac.signal, { onText: () => ac.abort() })
      .catch((e) => e);
    expect(await pending).toMatchObject({ code: 'aborted' });
  });

  it('a stop during the retry wait ends the call as stopped', async () => {
    fake().script.push({
      error: { status: 429, message: 'wait', headers: { 'retry-after': '5' } },
    });
    const ac = new AbortController();
    const before = fake().requests.length;
    // Half a minute's backoff (Ollama's client does not pass Retry-After on): the stop must end it.
    const pending = make({ attempts: 3, baseDelayMs: 30_000 })
      .complete(request, ac.signal)
      .catch((e) => e);
    await fake().script.waitForRequests(before + 1);
    ac.abort();
    expect(await pending).toMatchObject({ code: 'aborted' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../electron/host/models/anthropic';
import { OpenAiProvider } from '../../../electron/host/models/openai';
import { OpenAiResponsesProvider } from '../../../electron/host/models/openai-responses';
import { ModelError } from '../../../electron/host/models/model-error';
import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
} from '../../../electron/host/models/types';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { FakeOpenAi } from '../../helpers/fake-openai';

const FAST_RETRY = { attempts: 3, baseDelayMs: 1 };
const tools = [
  {
    name: 'read_file',
    description: 'read',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

function request(messages: ModelMessage[]): ModelRequest {
  return { system: 'You are a test.', messages, tools, maxTokens: 1000 };
}

const signal = () => new AbortController().signal;

let anthropic: FakeAnthropic;
let openai: FakeOpenAi;
beforeAll(async () => {
  anthropic = await FakeAnthropic.start();
  openai = await FakeOpenAi.start({ apiKey: 'sk-test' });
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
});

const wires: {
  name: string;
  make(key?: string): ModelProvider;
  fake(): FakeAnthropic | FakeOpenAi;
}[] = [
  {
    name: 'anthropic',
    make: (key = 'test-key') =>
      new AnthropicProvider({
        baseUrl: anthropic.url,
        apiKey: key,
        model: 'claude-test',
        contextWindow: 200_000,
        retry: FAST_RETRY,
      }),
    fake: () => anthropic,
  },
  {
    name: 'openai',
    make: (key = 'sk-test') =>
      new OpenAiProvider({
        provider: 'openai',
        baseUrl: openai.baseUrl,
        apiKey: key,
        model: 'gpt-test',
        contextWindow: 128_000,
        retry: FAST_RETRY,
      }),
    fake: () => openai,
  },
  {
    name: 'openai responses',
    make: (key = 'sk-test') =>
      new OpenAiResponsesProvider({
        baseUrl: openai.baseUrl,
        apiKey: key,
        model: 'gpt-5',
        contextWindow: 400_000,
        retry: FAST_RETRY,
      }),
    fake: () => openai,
  },
];

describe.each(wires)('$name wire protocol', ({ make, fake }) => {
  it('streams text deltas that add up to the final text, with usage', async () => {
    fake().script.push({ text: 'Hello there, streaming world', usage: { input: 321, output: 9 } });
    const deltas: string[] = [];
    const turn = await make().complete(request([{ role: 'user', text: 'hi' }]), signal(), {
      onText: (d) => deltas.push(d),
    });
    expect(turn.text).toBe('Hello there, streaming world');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(turn.text);
    expect(turn.usage).toMatchObject({ inputTokens: 321, outputTokens: 9 });
    expect(turn.stopReason).toBe('end_turn');
    const req = fake().requests.at(-1)!;
    expect(req.system).toContain('You are a test.');
    expect(req.tools).toEqual(['read_file']);
  });

  it('returns streamed tool calls with arguments assembled from fragments', async () => {
    fake().script.push({
      text: 'Reading.',
      toolCalls: [
        { name: 'read_file', args: { path: 'src/a.ts' } },
        { name: 'read_file', args: { path: 'b.txt' } },
      ],
    });
    const turn = await make().complete(request([{ role: 'user', text: 'read two' }]), signal());
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.toolCalls.map((c) => c.args)).toEqual([{ path: 'src/a.ts' }, { path: 'b.txt' }]);
    expect(turn.toolCalls[0]!.id).not.toBe(turn.toolCalls[1]!.id);
  });

  it('sends tool results in the shape the server accepts, and the model sees them', async () => {
    fake().script.push({ text: 'ok' });
    const messages: ModelMessage[] = [
      { role: 'user', text: 'read it' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'x' } }],
      },
      {
        role: 'tool',
        callId: 'c1',
        name: 'read_file',
        content: '{"kind":"file","text":"SECRET-CONTENT"}',
        isError: false,
      },
      { role: 'user', text: 'and then?' },
    ];
    const turn = await make().complete(request(messages), signal());
    expect(turn.text).toBe('ok');
    expect(fake().requests.at(-1)!.transcript).toContain('SECRET-CONTENT');
  });

  it('a wrong key is an auth error that says so, without retries', async () => {
    const before = fake().requests.length;
    const err = await make('wrong')
      .complete(request([{ role: 'user', text: 'hi' }]), signal())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('auth');
    expect(err.message).toMatch(/key/i);
    expect(fake().requests.length).toBe(before);
  });

  it('retries a 429 and then succeeds', async () => {
    fake().script.push(
      { error: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } },
      { text: 'after retry' },
    );
    const turn = await make().complete(request([{ role: 'user', text: 'hi' }]), signal());
    expect(turn.text).toBe('after retry');
  });

  it('gives up on repeated 500s after a bounded number of attempts', async () => {
    const before = fake().requests.length;
    fake().script.push(
      ...Array.from({ length: FAST_RETRY.attempts }, () => ({
        error: { status: 500, message: 'boom' },
      })),
    );
    const err = await make()
      .complete(request([{ role: 'user', text: 'hi' }]), signal())
      .catch((e) => e);
    expect(err.code).toBe('server');
    expect(err.message).toContain('boom');
    expect(fake().requests.length - before).toBe(FAST_RETRY.attempts);
    expect(fake().script.remaining).toBe(0);
  });

  it('names a context overflow as such', async () => {
    const message =
      fake() === anthropic
        ? 'prompt is too long: 300000 tokens > 200000 maximum'
        : "This model's maximum context length is 128000 tokens.";
    fake().script.push({
      error: {
        status: 400,
        message,
        type: fake() === anthropic ? 'invalid_request_error' : 'context_length_exceeded',
      },
    });
    const err = await make()
      .complete(request([{ role: 'user', text: 'hi' }]), signal())
      .catch((e) => e);
    expect(err.code).toBe('context_overflow');
  });

  it('a stream cut before its end marker is a network error, not a short answer', async () => {
    fake().script.push({ text: 'partial answer', truncate: true });
    const err = await make()
      .complete(request([{ role: 'user', text: 'hi' }]), signal())
      .catch((e) => e);
    expect(err.code).toBe('network');
  });
});

describe('network failure', () => {
  it('a server that is not there is a network error naming the address', async () => {
    const p = new OpenAiProvider({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      contextWindow: 1000,
      retry: FAST_RETRY,
    });
    const err = await p.complete(request([{ role: 'user', text: 'hi' }]), signal()).catch((e) => e);
    expect(err.code).toBe('network');
    expect(err.message).toContain('127.0.0.1:9');
  });

  it('a dropped connection is retried', async () => {
    anthropic.script.push({ disconnect: true }, { text: 'second try' });
    const p = wires[0]!.make();
    const turn = await p.complete(request([{ role: 'user', text: 'hi' }]), signal());
    expect(turn.text).toBe('second try');
  });

  it('aborting stops the call', async () => {
    const ac = new AbortController();
    anthropic.script.push({
      error: { status: 429, message: 'wait', headers: { 'retry-after': '5' } },
    });
    const before = anthropic.requests.length;
    const pending = wires[0]!
      .make()
      .complete(request([{ role: 'user', text: 'hi' }]), ac.signal)
      .catch((e) => e);
    await anthropic.script.waitForRequests(before + 1);
    ac.abort();
    expect((await pending).code).toBe('aborted');
  });
});

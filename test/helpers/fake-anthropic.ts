/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever JSON a client sends */
import { createHmac } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import { anthropicImageError } from './fake-image-shapes';
import { PromptCache } from './fake-prompt-cache';
import {
  listenLocal,
  ModelScript,
  pieces,
  readBody,
  type RecordedRequest,
  type ScriptedReply,
} from './fake-model-script';

// A local server speaking the Anthropic Messages API (POST /v1/messages, SSE when stream: true)
// with scripted replies. It checks what a real server checks and the loop could get wrong: the key,
// the version header, alternating roles starting with user, every tool_use answered by a
// tool_result in the next user message. Like the real API it refuses more than 4 cache_control
// breakpoints, a thinking block whose text or signature changed on its way back, redacted_thinking
// data it never issued, (thinking on) a tool loop whose last assistant turn lost its thinking, a
// request over 32 MB (413) and one past the image caps (fake-image-shapes.ts).

export interface FakeAnthropicOptions {
  apiKey?: string;
  /** A request body longer than this is refused as "prompt is too long" (context overflow). */
  maxPromptChars?: number;
  /** Model the prompt cache: usage (when a reply does not fix it) comes from the cache. */
  cache?: { minTokens?: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SIGNING_KEY = 'fake-anthropic-signing-key';
export const signThinking = (text: string) =>
  createHmac('sha256', SIGNING_KEY).update(text).digest('base64');

function transcriptOf(body: any): string {
  const parts: string[] = [];
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of content ?? []) {
      if (b.type === 'text') parts.push(`${m.role}: ${b.text}`);
      else if (b.type === 'tool_use')
        parts.push(`${m.role} tool_use ${b.name} ${JSON.stringify(b.input)}`);
      else if (b.type === 'tool_result')
        parts.push(
          `tool_result${b.is_error ? ' (error)' : ''}: ${typeof b.content === 'string' ? b.content : JSON.stringify(b.content)}`,
        );
    }
  }
  return parts.join('\n');
}

function protocolError(body: any): string | null {
  if (typeof body.model !== 'string' || !body.model) return 'model: required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: required';
  const msgs = body.messages;
  if (!Array.isArray(msgs) || !msgs.length) return 'messages: at least one message is required';
  if (msgs[0].role !== 'user') return 'messages: the first message must use the "user" role';
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (i > 0 && msgs[i - 1].role === m.role) return `messages.${i}: roles must alternate`;
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (!Array.isArray(content) || !content.length)
      return `messages.${i}: content must be non-empty`;
    for (const b of content)
      if (b.type === 'text' && !b.text)
        return `messages.${i}: text content blocks must be non-empty`;
    const uses = content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id);
    if (uses.length) {
      const next = msgs[i + 1];
      const results = (Array.isArray(next?.content) ? next.content : [])
        .filter((b: any) => b.type === 'tool_result')
        .map((b: any) => b.tool_use_id);
      for (const id of uses)
        if (!results.includes(id))
          return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${id}`;
      const lead = (next.content as any[]).findIndex((b: any) => b.type !== 'tool_result');
      if (
        lead !== -1 &&
        (next.content as any[]).slice(lead).some((b: any) => b.type === 'tool_result')
      )
        return `messages.${i + 1}: tool_result blocks must come first`;
    }
  }
  for (const t of body.tools ?? [])
    if (!t.name || !t.input_schema || t.input_schema.type !== 'object')
      return `tools: ${t.name}: input_schema must be an object schema`;
  return anthropicImageError(body) ?? thinkingError(body);
}

const redactedIssued = new Set<string>();

function thinkingError(body: any): string | null {
  const msgs = body.messages as any[];
  for (let i = 0; i < msgs.length; i++) {
    if (typeof msgs[i].content === 'string') continue;
    for (const b of msgs[i].content) {
      if ((b.type === 'thinking' || b.type === 'redacted_thinking') && b.cache_control)
        return `messages.${i}: thinking blocks cannot be marked with cache_control`;
      if (b.type === 'thinking' && (!b.signature || b.signature !== signThinking(b.thinking)))
        return `messages.${i}: Invalid \`signature\` in \`thinking\` block`;
      if (b.type === 'redacted_thinking' && !redactedIssued.has(b.data))
        return `messages.${i}: Invalid \`data\` in \`redacted_thinking\` block`;
    }
  }
  if (body.thinking?.type !== 'enabled') return null;
  const budget = body.thinking.budget_tokens;
  if (typeof budget !== 'number' || budget < 1024)
    return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (budget >= body.max_tokens)
    return '`max_tokens` must be greater than `thinking.budget_tokens`';
  const last = msgs[msgs.length - 1];
  const inToolLoop =
    Array.isArray(last.content) && last.content.some((b: any) => b.type === 'tool_result');
  const assistant = msgs[msgs.length - 2];
  if (inToolLoop && assistant && Array.isArray(assistant.content)) {
    const first = assistant.content[0]?.type;
    if (first !== 'thinking' && first !== 'redacted_thinking')
      return `messages.${msgs.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
  }
  return null;
}

export class FakeAnthropic {
  readonly script = new ModelScript();
  private idCounter = 0;
  private cache?: PromptCache;
  /** What GET /v1/models lists (a test may add to it). */
  readonly models = ['claude-sonnet-4-5'];
  /**
   * Per finished stream, in order: ms from its request's arrival to its last byte handed to the
   * socket (a bench's reference: the same stream on the wire).
   */
  readonly wireMs: number[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly opts: FakeAnthropicOptions,
  ) {}

  static async start(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    const box: { self?: FakeAnthropic } = {};
    const { server, url } = await listenLocal(() => (req, res) => box.self!.handle(req, res));
    box.self = new FakeAnthropic(server, url, { apiKey: 'test-key', ...opts });
    if (opts.cache) box.self.cache = new PromptCache(opts.cache.minTokens);
    return box.self;
  }

  get requests(): RecordedRequest[] {
    return this.script.requests;
  }

  private json(
    res: ServerResponse,
    status: number,
    type: string,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  }

  private async handle(
    req: import('node:http').IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const arrived = Date.now();
    const raw = await readBody(req);
    if (req.method === 'GET' && req.url?.split('?')[0] === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: this.models.map((id) => ({ id, type: 'model' })),
          has_more: false,
        }),
      );
      return;
    }
    // The SDK's beta client (Claude Code's) asks for /v1/messages?beta=true: the path decides.
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages')
      return this.json(res, 404, 'not_found_error', `no route ${req.method} ${req.url}`);
    if (req.headers['x-api-key'] !== this.opts.apiKey)
      return this.json(res, 401, 'authentication_error', 'invalid x-api-key');
    if (!req.headers['anthropic-version'])
      return this.json(res, 400, 'invalid_request_error', 'anthropic-version header is required');
    // The Messages API's request size limit (32 MB on the standard endpoints).
    if (Buffer.byteLength(raw) > 32 * 1024 * 1024)
      return this.json(res, 413, 'request_too_large', 'Request exceeds the maximum size');
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.json(res, 400, 'invalid_request_error', 'body is not JSON');
    }
    const bad = protocolError(body);
    if (bad) return this.json(res, 400, 'invalid_request_error', bad);
    let cacheUsage;
    try {
      cacheUsage = this.cache?.use(body);
    } catch (err) {
      return this.json(res, 400, 'invalid_request_error', (err as Error).message);
    }
    if (this.opts.maxPromptChars !== undefined && raw.length > this.opts.maxPromptChars) {
      return this.json(
        res,
        400,
        'invalid_request_error',
        `prompt is too long: ${raw.length} tokens > ${this.opts.maxPromptChars} maximum`,
      );
    }
    const system =
      typeof body.system === 'string'
        ? body.system
        : (body.system ?? []).map((b: any) => b.text).join('\n');
    const step = this.script.next({
      path: req.url,
      headers: req.headers,
      body,
      transcript: transcriptOf(body),
      tools: (body.tools ?? []).map((t: any) => t.name),
      system,
    });
    if ('disconnect' in step) {
      req.socket.destroy();
      return;
    }
    if ('error' in step) {
      const e = step.error;
      return this.json(
        res,
        e.status,
        e.type ??
          (e.status === 429
            ? 'rate_limit_error'
            : e.status >= 500
              ? 'api_error'
              : 'invalid_request_error'),
        e.message,
        e.headers,
      );
    }
    if (!body.stream) return this.json(res, 400, 'invalid_request_error', 'this fake only streams');
    await this.stream(res, step, body.model, arrived, cacheUsage);
  }

  private async stream(
    res: ServerResponse,
    reply: ScriptedReply,
    model: string,
    arrived: number,
    cached?: ReturnType<PromptCache['use']>,
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: unknown) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const usage = reply.usage ?? { input: cached?.input_tokens ?? 100, output: 20 };
    const cacheFields =
      cached && !reply.usage
        ? {
            cache_read_input_tokens: cached.cache_read_input_tokens,
            cache_creation_input_tokens: cached.cache_creation_input_tokens,
          }
        : {};
    send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${++this.idCounter}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: usage.input, output_tokens: 1, ...cacheFields },
      },
    });
    res.write(': keep-alive comment\n\n');
    let index = 0;
    if (reply.thinking) {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '' },
      });
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: reply.thinking },
      });
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: signThinking(reply.thinking) },
      });
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (reply.redactedThinking) {
      redactedIssued.add(reply.redactedThinking);
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'redacted_thinking', data: reply.redactedThinking },
      });
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (reply.text) {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      send('ping', { type: 'ping' });
      const { text, pace } = reply;
      const deltas = pace
        ? Array.from({ length: Math.ceil(text.length / pace.chars) }, (_, i) =>
            text.slice(i * pace.chars, (i + 1) * pace.chars),
          )
        : pieces(text);
      for (const p of deltas) {
        send('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: p },
        });
        if (pace) await sleep(pace.everyMs);
      }
      if (pace?.holdMs) await sleep(pace.holdMs);
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (reply.hang) return;
    if (reply.truncate) {
      res.end();
      return;
    }
    for (const call of reply.toolCalls ?? []) {
      const id = call.id ?? `toolu_${String(++this.idCounter).padStart(4, '0')}`;
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: call.name, input: {} },
      });
      for (const p of pieces(JSON.stringify(call.args)))
        send('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: p },
        });
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    const stop = reply.stopReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn');
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output },
    });
    send('message_stop', { type: 'message_stop' });
    res.end(() => this.wireMs.push(Date.now() - arrived));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

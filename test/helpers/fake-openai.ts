/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever JSON a client sends */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  listenLocal,
  ModelScript,
  pieces,
  readBody,
  type RecordedRequest,
  type ScriptedReply,
} from './fake-model-script';
import { chatImageError, responsesImageError } from './fake-image-shapes';

// A local server speaking OpenAI Chat Completions (POST /v1/chat/completions, SSE chunks ending in
// `data: [DONE]`) with scripted replies; also GET /v1/models and Ollama's GET /api/tags, so it can
// stand in for an Ollama server. It checks the bearer key (when one is set) and that every
// assistant tool call is answered by a `tool` message before the next assistant or user turn.
// POST /v1/responses speaks the Responses API (semantic SSE events); like the real one with store
// false, it refuses a function_call sent back without the reasoning item (and its encrypted
// content, unchanged) that came out with it.

export interface FakeOpenAiOptions {
  /** Required bearer key; undefined accepts requests without one (a local server). */
  apiKey?: string;
  maxPromptChars?: number;
  /** Models listed by /v1/models and /api/tags. */
  models?: string[];
  /**
   * Models served only on the Responses API: Chat Completions answers them with OpenAI's own 404
   * (its exact body, as Azure OpenAI and proxies pass it on).
   */
  responsesOnly?: string[];
}

/** OpenAI's answer on /v1/chat/completions for a model served only on /v1/responses. */
export const RESPONSES_ONLY_404 = {
  error: {
    message: 'This model is only supported in v1/responses and not in v1/chat/completions.',
    type: 'invalid_request_error',
    param: 'model',
    code: null,
  },
};

function transcriptOf(body: any): string {
  return (body.messages ?? [])
    .filter((m: any) => m.role !== 'system')
    .map((m: any) => {
      if (m.role === 'tool') return `tool_result: ${m.content}`;
      if (Array.isArray(m.content))
        return `${m.role}: ${m.content.map((p: any) => p.text ?? `[${p.type}]`).join('')}`;
      const calls = (m.tool_calls ?? [])
        .map((c: any) => `\n${m.role} tool_use ${c.function.name} ${c.function.arguments}`)
        .join('');
      return `${m.role}: ${m.content ?? ''}${calls}`;
    })
    .join('\n');
}

function protocolError(body: any): string | null {
  if (typeof body.model !== 'string' || !body.model) return 'model is required';
  const msgs = body.messages;
  if (!Array.isArray(msgs) || !msgs.length) return 'messages must be a non-empty array';
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (!['system', 'user', 'assistant', 'tool'].includes(m.role))
      return `messages[${i}].role is invalid`;
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const ids: string[] = m.tool_calls.map((c: any) => c.id);
      for (const c of m.tool_calls) {
        try {
          JSON.parse(c.function.arguments);
        } catch {
          return `messages[${i}].tool_calls: arguments must be a JSON string`;
        }
      }
      let j = i + 1;
      const answered = new Set<string>();
      while (j < msgs.length && msgs[j].role === 'tool') answered.add(msgs[j++].tool_call_id);
      for (const id of ids)
        if (!answered.has(id))
          return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${id}`;
    }
    if (m.role === 'tool' && (i === 0 || !['assistant', 'tool'].includes(msgs[i - 1].role)))
      return `messages[${i}]: a 'tool' message must follow an assistant message with tool_calls`;
  }
  for (const t of body.tools ?? [])
    if (t.type !== 'function' || !t.function?.name || t.function.parameters?.type !== 'object')
      return 'tools: each must be {type:"function", function:{name, parameters: object schema}}';
  return null;
}

function responsesTranscript(body: any): string {
  return (body.input ?? [])
    .map((i: any) => {
      if (i.type === 'function_call_output')
        return `tool_result: ${typeof i.output === 'string' ? i.output : i.output.map((p: any) => p.text ?? `[${p.type}]`).join('')}`;
      if (i.type === 'function_call') return `assistant tool_use ${i.name} ${i.arguments}`;
      if (i.type === 'reasoning') return `reasoning ${i.id}`;
      const content =
        typeof i.content === 'string'
          ? i.content
          : (i.content ?? []).map((c: any) => c.text ?? `[${c.type}]`).join('');
      return `${i.role}: ${content}`;
    })
    .join('\n');
}

export class FakeOpenAi {
  readonly script = new ModelScript();
  /** The models Chat Completions refused as Responses-only, one entry a request. */
  readonly chatRefusals: string[] = [];
  private counter = 0;
  /** call_id -> the reasoning item issued with it. */
  private readonly issuedReasoning = new Map<string, { id: string; encrypted_content: string }>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly opts: FakeOpenAiOptions,
  ) {}

  static async start(opts: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
    const box: { self?: FakeOpenAi } = {};
    const { server, url } = await listenLocal(() => (req, res) => box.self!.handle(req, res));
    box.self = new FakeOpenAi(server, url, opts);
    return box.self;
  }

  /** The base URL clients configure (OPENAI_BASE_URL style, with /v1). */
  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  get requests(): RecordedRequest[] {
    return this.script.requests;
  }

  private json(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private fail(
    res: ServerResponse,
    status: number,
    message: string,
    code: string | null = null,
    headers: Record<string, string> = {},
  ): void {
    this.json(
      res,
      status,
      { error: { message, type: status === 401 ? 'invalid_request_error' : 'error', code } },
      headers,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const models = this.opts.models ?? ['gpt-5'];
    if (req.method === 'GET' && req.url === '/api/tags')
      return this.json(res, 200, { models: models.map((name) => ({ name, model: name })) });
    if (req.method === 'GET' && req.url === '/v1/models')
      return this.json(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model' })),
      });
    if (req.method === 'POST' && req.url === '/v1/responses') return this.responses(req, res, raw);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return this.fail(res, 404, `no route ${req.method} ${req.url}`);
    if (
      this.opts.apiKey !== undefined &&
      req.headers.authorization !== `Bearer ${this.opts.apiKey}`
    ) {
      return this.fail(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.fail(res, 400, 'body is not JSON');
    }
    if (this.opts.responsesOnly?.includes(body.model)) {
      this.chatRefusals.push(body.model);
      return this.json(res, 404, RESPONSES_ONLY_404);
    }
    const bad = protocolError(body) ?? chatImageError(body);
    if (bad) return this.fail(res, 400, bad);
    if (this.opts.maxPromptChars !== undefined && raw.length > this.opts.maxPromptChars) {
      return this.fail(
        res,
        400,
        `This model's maximum context length is ${this.opts.maxPromptChars} tokens. However, your messages resulted in ${raw.length} tokens.`,
        'context_length_exceeded',
      );
    }
    const system = (body.messages ?? [])
      .filter((m: any) => m.role === 'system')
      .map((m: any) => m.content)
      .join('\n');
    const step = this.script.next({
      path: req.url,
      headers: req.headers,
      body,
      transcript: transcriptOf(body),
      tools: (body.tools ?? []).map((t: any) => t.function.name),
      system,
    });
    if ('disconnect' in step) {
      req.socket.destroy();
      return;
    }
    if ('error' in step)
      return this.fail(
        res,
        step.error.status,
        step.error.message,
        step.error.type ?? null,
        step.error.headers,
      );
    if (!body.stream) {
      return this.json(res, 200, {
        id: `chatcmpl-${++this.counter}`,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: step.text ?? null,
              tool_calls: this.calls(step).map((c) => ({ ...c, index: undefined })),
            },
            finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop',
          },
        ],
        usage: {
          prompt_tokens: step.usage?.input ?? 100,
          completion_tokens: step.usage?.output ?? 20,
        },
      });
    }
    this.stream(res, step, body);
  }

  private responsesError(body: any): string | null {
    if (typeof body.model !== 'string' || !body.model) return 'model is required';
    if (!Array.isArray(body.input)) return 'input must be an array';
    const input = body.input as any[];
    for (const [n, item] of input.entries()) {
      if (item.type === 'reasoning' && body.store === false && !item.encrypted_content)
        return `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false.`;
      if (item.type !== 'function_call') continue;
      if (!input.some((o: any) => o.type === 'function_call_output' && o.call_id === item.call_id))
        return `No tool output found for function call ${item.call_id}.`;
      const needed = this.issuedReasoning.get(item.call_id);
      if (
        needed &&
        !input
          .slice(0, n)
          .some(
            (r: any) =>
              r.type === 'reasoning' &&
              r.id === needed.id &&
              r.encrypted_content === needed.encrypted_content,
          )
      )
        return `Item '${item.call_id}' of type 'function_call' was provided without its required 'reasoning' item: '${needed.id}'.`;
    }
    for (const t of body.tools ?? [])
      if (t.type !== 'function' || !t.name || t.parameters?.type !== 'object')
        return 'tools: each must be {type:"function", name, parameters: object schema}';
    return null;
  }

  private async responses(req: IncomingMessage, res: ServerResponse, raw: string) {
    if (
      this.opts.apiKey !== undefined &&
      req.headers.authorization !== `Bearer ${this.opts.apiKey}`
    )
      return this.fail(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.fail(res, 400, 'body is not JSON');
    }
    const bad = this.responsesError(body) ?? responsesImageError(body);
    if (bad) return this.fail(res, 400, bad);
    const step = this.script.next({
      path: req.url!,
      headers: req.headers,
      body,
      transcript: responsesTranscript(body),
      tools: (body.tools ?? []).map((t: any) => t.name),
      system: body.instructions ?? '',
    });
    if ('disconnect' in step) {
      req.socket.destroy();
      return;
    }
    if ('error' in step)
      return this.fail(
        res,
        step.error.status,
        step.error.message,
        step.error.type ?? null,
        step.error.headers,
      );
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let seq = 0;
    const send = (data: Record<string, unknown>) =>
      res.write(
        `event: ${String(data.type)}\ndata: ${JSON.stringify({ ...data, sequence_number: seq++ })}\n\n`,
      );
    const id = `resp_${++this.counter}`;
    const output: any[] = [];
    send({ type: 'response.created', response: { id, status: 'in_progress', output: [] } });
    let reasoningItem: { id: string; encrypted_content: string } | undefined;
    if (step.thinking) {
      const rid = `rs_${++this.counter}`;
      const item = {
        type: 'reasoning',
        id: rid,
        summary: [{ type: 'summary_text', text: step.thinking }],
        encrypted_content: Buffer.from(`sealed:${rid}:${step.thinking}`).toString('base64'),
      };
      send({
        type: 'response.output_item.added',
        output_index: output.length,
        item: { type: 'reasoning', id: rid, summary: [] },
      });
      send({
        type: 'response.reasoning_summary_text.delta',
        item_id: rid,
        output_index: output.length,
        summary_index: 0,
        delta: step.thinking,
      });
      send({ type: 'response.output_item.done', output_index: output.length, item });
      output.push(item);
      reasoningItem = item;
    }
    if (step.text) {
      const mid = `msg_${++this.counter}`;
      const at = output.length;
      send({
        type: 'response.output_item.added',
        output_index: at,
        item: { type: 'message', id: mid, role: 'assistant', status: 'in_progress', content: [] },
      });
      send({
        type: 'response.content_part.added',
        item_id: mid,
        output_index: at,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const p of pieces(step.text))
        send({
          type: 'response.output_text.delta',
          item_id: mid,
          output_index: at,
          content_index: 0,
          delta: p,
        });
      const item = {
        type: 'message',
        id: mid,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
      send({ type: 'response.output_item.done', output_index: at, item });
      output.push(item);
    }
    if (step.hang) return;
    if (step.truncate) {
      res.end();
      return;
    }
    for (const c of step.toolCalls ?? []) {
      const callId = c.id ?? `call_${++this.counter}`;
      const fid = `fc_${++this.counter}`;
      const at = output.length;
      const args = JSON.stringify(c.args);
      send({
        type: 'response.output_item.added',
        output_index: at,
        item: { type: 'function_call', id: fid, call_id: callId, name: c.name, arguments: '' },
      });
      for (const p of pieces(args))
        send({
          type: 'response.function_call_arguments.delta',
          item_id: fid,
          output_index: at,
          delta: p,
        });
      send({
        type: 'response.function_call_arguments.done',
        item_id: fid,
        output_index: at,
        arguments: args,
      });
      const item = {
        type: 'function_call',
        id: fid,
        call_id: callId,
        name: c.name,
        arguments: args,
        status: 'completed',
      };
      send({ type: 'response.output_item.done', output_index: at, item });
      output.push(item);
      if (reasoningItem) this.issuedReasoning.set(callId, reasoningItem);
    }
    const usage = {
      input_tokens: step.usage?.input ?? 100,
      input_tokens_details: { cached_tokens: Math.floor((step.usage?.input ?? 100) / 2) },
      output_tokens: step.usage?.output ?? 20,
      output_tokens_details: { reasoning_tokens: step.thinking ? 7 : 0 },
      total_tokens: (step.usage?.input ?? 100) + (step.usage?.output ?? 20),
    };
    if (step.stopReason === 'max_tokens')
      send({
        type: 'response.incomplete',
        response: {
          id,
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          output,
          usage,
        },
      });
    else send({ type: 'response.completed', response: { id, status: 'completed', output, usage } });
    res.end();
  }

  private calls(reply: ScriptedReply) {
    return (reply.toolCalls ?? []).map((c, index) => ({
      index,
      id: c.id ?? `call_${++this.counter}`,
      type: 'function' as const,
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
  }

  private stream(res: ServerResponse, reply: ScriptedReply, body: any): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${++this.counter}`;
    const chunk = (
      delta: unknown,
      finish: string | null = null,
      extra: Record<string, unknown> = {},
    ) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    chunk({ role: 'assistant', content: '' });
    if (reply.thinking) chunk({ reasoning_content: reply.thinking });
    for (const p of reply.text ? pieces(reply.text) : []) chunk({ content: p });
    if (reply.truncate) {
      res.end();
      return;
    }
    for (const c of this.calls(reply)) {
      const [first, ...rest] = pieces(c.function.arguments);
      chunk({
        tool_calls: [
          {
            index: c.index,
            id: c.id,
            type: 'function',
            function: { name: c.function.name, arguments: first },
          },
        ],
      });
      for (const p of rest) chunk({ tool_calls: [{ index: c.index, function: { arguments: p } }] });
    }
    chunk({}, reply.toolCalls?.length ? 'tool_calls' : 'stop');
    if (body.stream_options?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: reply.usage?.input ?? 100, completion_tokens: reply.usage?.output ?? 20, total_tokens: 0 } })}\n\n`,
      );
    }
    res.write('data: [DONE]\n\n');
    res.end();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

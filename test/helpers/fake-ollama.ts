/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever JSON a client sends */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  listenLocal,
  ModelScript,
  pieces,
  readBody,
  type RecordedRequest,
} from './fake-model-script';
import { ollamaImageError } from './fake-image-shapes';

// A local server speaking Ollama's native API: POST /api/chat (NDJSON stream, one JSON object a
// line, the last with done: true, done_reason and the eval counts), POST /api/show (model_info
// with <arch>.context_length), GET /api/tags, GET /api/version. Like Ollama, a prompt longer than
// the request's num_ctx (default 4096 tokens at 4 characters each) is cut from the front in
// silence: `truncated` counts the requests that were.

export interface FakeOllamaOptions {
  /** `vision`: the model takes images ("vision" among its /api/show capabilities). */
  models?: { name: string; contextLength: number; vision?: boolean }[];
}

const DEFAULT_NUM_CTX = 4096;

export class FakeOllama {
  readonly script = new ModelScript();
  truncated = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly opts: Required<FakeOllamaOptions>,
  ) {}

  static async start(opts: FakeOllamaOptions = {}): Promise<FakeOllama> {
    const box: { self?: FakeOllama } = {};
    const { server, url } = await listenLocal(() => (req, res) => box.self!.handle(req, res));
    box.self = new FakeOllama(server, url, {
      models: opts.models ?? [{ name: 'qwen3:8b', contextLength: 40_960 }],
    });
    return box.self;
  }

  get requests(): RecordedRequest[] {
    return this.script.requests;
  }

  private json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (req.method === 'GET' && req.url === '/api/version')
      return this.json(res, 200, { version: '0.12.0' });
    if (req.method === 'GET' && req.url === '/api/tags')
      return this.json(res, 200, {
        models: this.opts.models.map((m) => ({ name: m.name, model: m.name, size: 1 })),
      });
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return this.json(res, 400, { error: 'invalid JSON' });
    }
    if (req.method === 'POST' && req.url === '/api/show') {
      const m = this.opts.models.find((x) => x.name === body.model);
      if (!m) return this.json(res, 404, { error: `model '${body.model}' not found` });
      const arch = m.name.split(':')[0]!.replace(/[^a-z0-9]/g, '');
      return this.json(res, 200, {
        details: { family: arch },
        model_info: { 'general.architecture': arch, [`${arch}.context_length`]: m.contextLength },
        capabilities: ['completion', 'tools', ...(m.vision ? ['vision'] : [])],
      });
    }
    if (req.method !== 'POST' || req.url !== '/api/chat')
      return this.json(res, 404, { error: `no route ${req.method} ${req.url}` });
    if (!this.opts.models.some((m) => m.name === body.model))
      return this.json(res, 404, {
        error: `model "${body.model}" not found, try pulling it first`,
      });
    const msgs: any[] = body.messages ?? [];
    const badImage = ollamaImageError(body);
    if (badImage) return this.json(res, 400, { error: badImage });
    for (let i = 0; i < msgs.length; i++)
      if (msgs[i].role === 'tool' && !['assistant', 'tool'].includes(msgs[i - 1]?.role))
        return this.json(res, 400, {
          error: `messages[${i}]: a tool message must follow a tool call`,
        });
    const numCtx = body.options?.num_ctx ?? DEFAULT_NUM_CTX;
    const promptTokens = Math.ceil(JSON.stringify(msgs).length / 4);
    if (promptTokens > numCtx) this.truncated++;
    const step = this.script.next({
      path: req.url,
      headers: req.headers,
      body,
      transcript: msgs
        .filter((m) => m.role !== 'system')
        .map((m) => `${m.role}: ${m.content}`)
        .join('\n'),
      tools: (body.tools ?? []).map((t: any) => t.function.name),
      system: msgs
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n'),
    });
    if ('disconnect' in step) {
      req.socket.destroy();
      return;
    }
    if ('error' in step) return this.json(res, step.error.status, { error: step.error.message });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (o: unknown) => res.write(`${JSON.stringify(o)}\n`);
    const base = { model: body.model, created_at: new Date().toISOString() };
    if (step.thinking)
      line({
        ...base,
        message: { role: 'assistant', content: '', thinking: step.thinking },
        done: false,
      });
    for (const p of step.text ? pieces(step.text) : [])
      line({ ...base, message: { role: 'assistant', content: p }, done: false });
    if (step.hang) return;
    if (step.truncate) {
      res.end();
      return;
    }
    if (step.toolCalls?.length)
      line({
        ...base,
        message: {
          role: 'assistant',
          content: '',
          tool_calls: step.toolCalls.map((c) => ({
            function: { name: c.name, arguments: c.args },
          })),
        },
        done: false,
      });
    line({
      ...base,
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: step.stopReason === 'max_tokens' ? 'length' : 'stop',
      prompt_eval_count: step.usage?.input ?? Math.min(promptTokens, numCtx),
      eval_count: step.usage?.output ?? 20,
    });
    res.end();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

import { ANTHROPIC_API_VERSION, MODEL_IDLE_TIMEOUT_MS } from './constants';
import { postJson, type RetryPolicy } from './http';
import { ModelError } from './model-error';
import { readSse } from './sse';
import { parseToolArgs } from './tool-args';
import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
  StopReason,
  StreamCallbacks,
} from './types';

// Anthropic Messages API (POST /v1/messages, stream: true). Tool results travel as `tool_result`
// blocks in the next user message; consecutive same-role messages are merged because the API wants
// the roles to alternate, starting with a user turn.

export interface AnthropicOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  retry?: RetryPolicy;
}

type Block = Record<string, unknown>;

interface WireUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}
/** The fields of a stream event this client reads (every field may be absent). */
interface WireEvent {
  type?: string;
  index?: number;
  message?: { usage?: WireUsage };
  content_block?: { type?: string; text?: string; id?: string; name?: string };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    stop_reason?: string;
  };
  usage?: WireUsage;
  error?: { type?: string; message?: string };
}
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export function toAnthropicMessages(messages: ModelMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last?.role === role) {
      // tool_result blocks must lead a user message: keep them ahead of text merged into it.
      if (role === 'user') {
        const results = [...last.content, ...blocks].filter((b) => b.type === 'tool_result');
        const rest = [...last.content, ...blocks].filter((b) => b.type !== 'tool_result');
        last.content = [...results, ...rest];
      } else last.content.push(...blocks);
    } else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', m.text ? [{ type: 'text', text: m.text }] : []);
    else if (m.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: m.callId,
          content: m.content || '(empty)',
          ...(m.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      const blocks: Block[] = [];
      if (m.text) blocks.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls)
        blocks.push({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: isObject(c.args) ? c.args : {},
        });
      push('assistant', blocks);
    }
  }
  if (out[0]?.role !== 'user')
    out.unshift({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function stopReason(raw: unknown): StopReason {
  if (raw === 'end_turn' || raw === 'stop_sequence') return 'end_turn';
  if (raw === 'tool_use') return 'tool_use';
  if (raw === 'max_tokens') return 'max_tokens';
  return 'other';
}

export class AnthropicProvider implements ModelProvider {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly contextWindow: number;

  constructor(private readonly opts: AnthropicOptions) {
    this.model = opts.model;
    this.contextWindow = opts.contextWindow;
  }

  async complete(
    req: ModelRequest,
    signal: AbortSignal,
    cb: StreamCallbacks = {},
  ): Promise<ModelTurn> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/v1/messages`;
    const res = await postJson({
      provider: 'Anthropic',
      url,
      signal,
      retry: this.opts.retry,
      headers: {
        'x-api-key': this.opts.apiKey,
        'anthropic-version': ANTHROPIC_API_VERSION,
        accept: 'text/event-stream',
      },
      body: {
        model: this.model,
        max_tokens: req.maxTokens,
        stream: true,
        ...(req.system ? { system: req.system } : {}),
        messages: toAnthropicMessages(req.messages),
        ...(req.tools.length
          ? {
              tools: req.tools.map((t) => ({
                name: t.name,
                description: t.description,
                input_schema: t.parameters,
              })),
            }
          : {}),
      },
    });
    if (!res.body) throw new ModelError('protocol', 'Anthropic answered with an empty body');
    return this.readStream(res.body, signal, cb);
  }

  private async readStream(
    body: ReadableStream<Uint8Array>,
    signal: AbortSignal,
    cb: StreamCallbacks,
  ): Promise<ModelTurn> {
    const blocks = new Map<
      number,
      { type: string; text: string; id?: string; name?: string; json: string }
    >();
    const turn: ModelTurn = {
      text: '',
      toolCalls: [],
      stopReason: 'other',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    let stopped = false;
    try {
      for await (const ev of readSse(body, MODEL_IDLE_TIMEOUT_MS, 'Anthropic')) {
        if (signal.aborted) throw new ModelError('aborted', 'stopped');
        let data: WireEvent;
        try {
          data = JSON.parse(ev.data) as WireEvent;
        } catch {
          throw new ModelError(
            'protocol',
            `Anthropic sent an event that is not JSON: ${ev.data.slice(0, 200)}`,
          );
        }
        switch (data.type) {
          case 'message_start': {
            const u = data.message?.usage ?? {};
            turn.usage.inputTokens =
              (u.input_tokens ?? 0) +
              (u.cache_creation_input_tokens ?? 0) +
              (u.cache_read_input_tokens ?? 0);
            turn.usage.outputTokens = u.output_tokens ?? 0;
            break;
          }
          case 'content_block_start': {
            const b = data.content_block ?? {};
            blocks.set(data.index ?? 0, {
              type: b.type ?? '',
              text: b.text ?? '',
              id: b.id,
              name: b.name,
              json: '',
            });
            if (b.type === 'text' && b.text) cb.onText?.(b.text);
            break;
          }
          case 'content_block_delta': {
            const block = blocks.get(data.index ?? 0);
            const d = data.delta ?? {};
            if (!block) break;
            if (d.type === 'text_delta' && d.text) {
              block.text += d.text;
              cb.onText?.(d.text);
            } else if (d.type === 'input_json_delta') block.json += d.partial_json ?? '';
            else if (d.type === 'thinking_delta') block.text += d.thinking ?? '';
            break;
          }
          case 'message_delta':
            if (data.delta?.stop_reason) turn.stopReason = stopReason(data.delta.stop_reason);
            if (data.usage?.output_tokens !== undefined)
              turn.usage.outputTokens = data.usage.output_tokens;
            break;
          case 'message_stop':
            stopped = true;
            break;
          case 'error': {
            const kind = data.error?.type ?? 'error';
            const msg = data.error?.message ?? 'unknown error';
            throw new ModelError(
              kind === 'overloaded_error' ? 'overloaded' : 'server',
              `Anthropic stream error (${kind}): ${msg}`,
            );
          }
        }
      }
    } catch (err) {
      if (err instanceof ModelError) throw err;
      if (signal.aborted) throw new ModelError('aborted', 'stopped');
      throw new ModelError('network', `Anthropic stream broke: ${(err as Error).message}`);
    }
    if (!stopped) throw new ModelError('network', 'Anthropic stream ended before message_stop');
    const calls: ModelToolCall[] = [];
    const texts: string[] = [];
    const thinking: string[] = [];
    for (const [, b] of [...blocks.entries()].sort((a, b) => a[0] - b[0])) {
      if (b.type === 'text') texts.push(b.text);
      else if (b.type === 'thinking') thinking.push(b.text);
      else if (b.type === 'tool_use')
        calls.push({
          id: b.id ?? `toolu_${calls.length}`,
          name: b.name ?? '',
          ...parseToolArgs(b.json),
        });
    }
    turn.text = texts.join('');
    if (thinking.length) turn.thinking = thinking.join('\n');
    turn.toolCalls = calls;
    return turn;
  }
}

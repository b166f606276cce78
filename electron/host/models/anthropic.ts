import type AnthropicClient from '@anthropic-ai/sdk';
import { withCacheBreakpoints, toAnthropicMessages } from './anthropic-wire';
import { ANTHROPIC_API_VERSION } from './constants';
import { sdkModelError, type RetryPolicy } from './http';
import { sdkStream } from './sdk-stream';
import { parseToolArgs } from './tool-args';
import type {
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
  ReasoningBlocks,
  StopReason,
  StreamCallbacks,
  ThinkingSetting,
} from './types';
import { ANTHROPIC_IMAGE_LIMITS } from './image-limits';

// Anthropic Messages API through the official SDK (streamed), with prompt caching, extended
// thinking (thinking and redacted_thinking blocks kept with their signatures and sent back
// unchanged) and image input. The SDK is imported when the first request is made, so a command
// that never talks to a model does not load it. Its own retries are off: sdkStream retries only
// before a reply starts, with the app's policy and error messages.

export { toAnthropicMessages } from './anthropic-wire';

export interface AnthropicOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  thinking?: ThinkingSetting;
  retry?: RetryPolicy;
}

interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}
/** The fields of a stream event this client reads (every field may be absent). */
interface WireEvent {
  type?: string;
  index?: number;
  message?: { usage?: WireUsage };
  content_block?: {
    type?: string;
    text?: string;
    id?: string;
    name?: string;
    thinking?: string;
    signature?: string;
    data?: string;
  };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
  };
  usage?: WireUsage;
}

interface OpenBlock {
  type: string;
  text: string;
  id?: string;
  name?: string;
  json: string;
  signature?: string;
  data?: string;
}

function stopReason(raw: unknown): StopReason {
  if (raw === 'end_turn' || raw === 'stop_sequence') return 'end_turn';
  if (raw === 'tool_use' || raw === 'pause_turn' || raw === 'refusal' || raw === 'max_tokens')
    return raw;
  return 'other';
}

export class AnthropicProvider implements ModelProvider {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly contextWindow: number;
  /** Every Claude model the Messages API serves takes images. */
  readonly images = true;
  readonly imageLimits = ANTHROPIC_IMAGE_LIMITS;
  private client?: AnthropicClient;

  constructor(private readonly opts: AnthropicOptions) {
    this.model = opts.model;
    this.contextWindow = opts.contextWindow;
  }

  private async sdk(): Promise<AnthropicClient> {
    if (!this.client) {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      // The key is passed (so the SDK reads no credential of its own from the environment or a
      // profile), then sent the documented way: x-api-key with the API version whose stream
      // shapes this client reads, and no bearer header (this SDK release defaults to one).
      this.client = new Anthropic({
        apiKey: this.opts.apiKey,
        baseURL: this.opts.baseUrl.replace(/\/+$/, ''),
        maxRetries: 0,
        defaultHeaders: {
          'x-api-key': this.opts.apiKey,
          'anthropic-version': ANTHROPIC_API_VERSION,
          authorization: null,
        },
      });
    }
    return this.client;
  }

  /** The request body: exported for tests of the wire shape. */
  body(req: ModelRequest): Record<string, unknown> {
    const thinking = req.plain ? 'off' : (this.opts.thinking ?? 'off');
    const messages = toAnthropicMessages(req.messages);
    const cached = req.plain
      ? { tools: [], system: req.system ? [{ type: 'text', text: req.system }] : [], messages }
      : withCacheBreakpoints(req.tools, req.system, messages);
    return {
      model: this.model,
      // budget_tokens must be below max_tokens: thinking is budgeted on top of the reply's room.
      max_tokens: req.maxTokens + (thinking === 'off' ? 0 : thinking.budget_tokens),
      stream: true,
      ...(cached.system.length ? { system: cached.system } : {}),
      messages: cached.messages,
      ...(req.tools.length && !req.plain ? { tools: cached.tools } : {}),
      ...(thinking === 'off' ? {} : { thinking }),
    };
  }

  async complete(
    req: ModelRequest,
    signal: AbortSignal,
    cb: StreamCallbacks = {},
  ): Promise<ModelTurn> {
    const client = await this.sdk();
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/v1/messages`;
    const body = this.body(req);
    const blocks = new Map<number, OpenBlock>();
    const turn: ModelTurn = {
      text: '',
      toolCalls: [],
      stopReason: 'other',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    let stopped = false;
    await sdkStream<WireEvent>({
      provider: 'Anthropic',
      signal,
      retry: this.opts.retry,
      open: async (local) =>
        (await client.messages.create(
          body as unknown as Parameters<typeof client.messages.create>[0] & { stream: true },
          { signal: local },
        )) as AsyncIterable<WireEvent>,
      error: (e) => sdkModelError('Anthropic', url, e, signal),
      onEvent: (data) => {
        if (data.type === 'message_stop') stopped = true;
        else readEvent(data, blocks, turn, cb);
      },
      ended: () => stopped,
      endMarker: 'message_stop',
    });
    const calls: ModelToolCall[] = [];
    const texts: string[] = [];
    const thinking: string[] = [];
    const reasoning: ReasoningBlocks = { provider: 'anthropic', items: [] };
    for (const [, b] of [...blocks.entries()].sort((a, b) => a[0] - b[0])) {
      if (b.type === 'text') texts.push(b.text);
      else if (b.type === 'thinking') {
        thinking.push(b.text);
        reasoning.items.push({ type: 'thinking', thinking: b.text, signature: b.signature ?? '' });
      } else if (b.type === 'redacted_thinking')
        reasoning.items.push({ type: 'redacted_thinking', data: b.data ?? '' });
      else if (b.type === 'tool_use')
        calls.push({
          id: b.id ?? `toolu_${calls.length}`,
          name: b.name ?? '',
          ...parseToolArgs(b.json),
        });
    }
    turn.text = texts.join('');
    if (thinking.length) turn.thinking = thinking.join('\n');
    if (reasoning.items.length) turn.reasoning = reasoning;
    turn.toolCalls = calls;
    return turn;
  }
}

/** One stream event into the open blocks and the turn's usage and stop reason. */
function readEvent(
  data: WireEvent,
  blocks: Map<number, OpenBlock>,
  turn: ModelTurn,
  cb: StreamCallbacks,
): void {
  switch (data.type) {
    case 'message_start': {
      const u = data.message?.usage ?? {};
      const read = u.cache_read_input_tokens ?? 0;
      const write = u.cache_creation_input_tokens ?? 0;
      turn.usage = {
        inputTokens: (u.input_tokens ?? 0) + read + write,
        outputTokens: u.output_tokens ?? 0,
        cacheReadTokens: read,
        cacheWriteTokens: write,
      };
      break;
    }
    case 'content_block_start': {
      const b = data.content_block ?? {};
      blocks.set(data.index ?? 0, {
        type: b.type ?? '',
        text: b.text ?? b.thinking ?? '',
        id: b.id,
        name: b.name,
        json: '',
        signature: b.signature,
        data: b.data,
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
      else if (d.type === 'signature_delta') block.signature = d.signature ?? '';
      break;
    }
    case 'message_delta':
      if (data.delta?.stop_reason) turn.stopReason = stopReason(data.delta.stop_reason);
      if (typeof data.usage?.output_tokens === 'number')
        turn.usage.outputTokens = data.usage.output_tokens;
      break;
  }
}

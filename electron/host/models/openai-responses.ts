import type OpenAIClient from 'openai';
import { sdkModelError, type RetryPolicy } from './http';
import { ModelError } from './model-error';
import { dataUrl } from './image-notes';
import { sdkStream } from './sdk-stream';
import { parseToolArgs } from './tool-args';
import type {
  ModelImage,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  ReasoningBlocks,
  StreamCallbacks,
} from './types';
import { OPENAI_IMAGE_LIMITS } from './image-limits';

// OpenAI's Responses API (POST /v1/responses, streamed) through the official SDK, imported when
// the first request is made: what GPT-5, the o-series and Codex are meant to be called with.
// Tool calls are function_call items answered by function_call_output items; the model's
// reasoning items come back with their encrypted content (nothing is stored server side:
// store false) and are sent, verbatim and in place, with the next request, so the model keeps its
// chain of thought across tool calls. Reasoning effort is a setting.

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface ResponsesOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  contextWindow: number;
  reasoningEffort?: ReasoningEffort;
  retry?: RetryPolicy;
}

type Item = Record<string, unknown>;

/** Reasoning models take `reasoning` settings; others refuse them. */
export const isReasoningModel = (model: string) => /^(gpt-5|o\d|codex)|codex/i.test(model);

const inputImage = (i: ModelImage) => ({
  type: 'input_image',
  image_url: dataUrl(i),
  detail: 'auto',
});

export function toResponsesInput(messages: ModelMessage[]): Item[] {
  const input: Item[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      input.push({
        role: 'user',
        content: [
          ...(m.images ?? []).map(inputImage),
          { type: 'input_text', text: m.text || '(continue)' },
        ],
      });
    } else if (m.role === 'tool') {
      // An image a tool read goes back in the output itself, beside the result's text.
      const text = m.content || '(empty)';
      input.push({
        type: 'function_call_output',
        call_id: m.callId,
        output: m.images?.length
          ? [{ type: 'input_text', text }, ...m.images.map(inputImage)]
          : text,
      });
    } else {
      // The reasoning items lead their turn, as they came out of the previous response.
      if (m.reasoning?.provider === 'openai')
        input.push(...m.reasoning.items.map((i) => ({ ...i })));
      if (m.text) input.push({ role: 'assistant', content: m.text });
      for (const c of m.toolCalls)
        input.push({
          type: 'function_call',
          call_id: c.id,
          name: c.name,
          arguments: JSON.stringify(c.args ?? {}),
        });
    }
  }
  return input;
}

interface StreamEvent {
  type?: string;
  output_index?: number;
  delta?: string;
  item?: Item & { type?: string; call_id?: string; name?: string; arguments?: string };
  response?: {
    status?: string;
    incomplete_details?: { reason?: string } | null;
    error?: { code?: string; message?: string } | null;
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
      output_tokens_details?: { reasoning_tokens?: number };
    };
  };
  message?: string;
  code?: string;
}

export class OpenAiResponsesProvider implements ModelProvider {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly contextWindow: number;
  /** GPT-5, the o-series and Codex all take images. */
  readonly images = true;
  readonly imageLimits = OPENAI_IMAGE_LIMITS;
  private client?: OpenAIClient;

  constructor(private readonly opts: ResponsesOptions) {
    this.model = opts.model;
    this.contextWindow = opts.contextWindow;
  }

  private async sdk(): Promise<OpenAIClient> {
    if (!this.client) {
      const { default: OpenAI } = await import('openai');
      this.client = new OpenAI({
        apiKey: this.opts.apiKey ?? 'none',
        baseURL: this.opts.baseUrl.replace(/\/+$/, ''),
        maxRetries: 0,
        organization: null,
        project: null,
      });
    }
    return this.client;
  }

  body(req: ModelRequest): Record<string, unknown> {
    const reasoning = isReasoningModel(this.model) && !req.plain;
    return {
      model: this.model,
      instructions: req.system || undefined,
      input: toResponsesInput(req.messages),
      stream: true,
      store: false,
      max_output_tokens: req.maxTokens,
      ...(req.tools.length
        ? {
            tools: req.tools.map((t) => ({
              type: 'function',
              name: t.name,
              description: t.description,
              parameters: t.parameters,
              strict: false,
            })),
          }
        : {}),
      ...(reasoning
        ? {
            include: ['reasoning.encrypted_content'],
            reasoning: {
              summary: 'auto',
              ...(this.opts.reasoningEffort ? { effort: this.opts.reasoningEffort } : {}),
            },
          }
        : {}),
    };
  }

  async complete(
    req: ModelRequest,
    signal: AbortSignal,
    cb: StreamCallbacks = {},
  ): Promise<ModelTurn> {
    const client = await this.sdk();
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/responses`;
    const body = this.body(req);
    const turn: ModelTurn = {
      text: '',
      toolCalls: [],
      stopReason: 'other',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    const calls = new Map<number, { id: string; name: string; json: string }>();
    const reasoning = new Map<number, Item & { type: string }>();
    let thinking = '';
    let refused = false;
    let finished = false;
    await sdkStream<StreamEvent>({
      provider: 'OpenAI',
      signal,
      retry: this.opts.retry,
      open: async (local) =>
        (await client.responses.create(
          body as unknown as Parameters<typeof client.responses.create>[0] & { stream: true },
          { signal: local },
        )) as AsyncIterable<StreamEvent>,
      error: (e) => sdkModelError('OpenAI', url, e, signal),
      endMarker: 'response.completed',
      ended: () => finished,
      onEvent: (ev) => {
        const at = ev.output_index ?? 0;
        switch (ev.type) {
          case 'response.output_text.delta':
            if (ev.delta) {
              turn.text += ev.delta;
              cb.onText?.(ev.delta);
            }
            break;
          case 'response.refusal.delta':
            refused = true;
            turn.text += ev.delta ?? '';
            break;
          case 'response.reasoning_summary_text.delta':
            thinking += ev.delta ?? '';
            break;
          case 'response.output_item.added':
            if (ev.item?.type === 'function_call')
              calls.set(at, {
                id: ev.item.call_id ?? '',
                name: ev.item.name ?? '',
                json: ev.item.arguments ?? '',
              });
            break;
          case 'response.function_call_arguments.delta': {
            const c = calls.get(at);
            if (c) c.json += ev.delta ?? '';
            break;
          }
          case 'response.output_item.done':
            if (ev.item?.type === 'reasoning') reasoning.set(at, { ...ev.item, type: 'reasoning' });
            else if (ev.item?.type === 'function_call')
              calls.set(at, {
                id: ev.item.call_id ?? calls.get(at)?.id ?? '',
                name: ev.item.name ?? calls.get(at)?.name ?? '',
                json: ev.item.arguments ?? calls.get(at)?.json ?? '',
              });
            break;
          case 'response.completed':
          case 'response.incomplete': {
            finished = true;
            const u = ev.response?.usage;
            turn.usage = {
              inputTokens: u?.input_tokens ?? 0,
              outputTokens: u?.output_tokens ?? 0,
              cacheReadTokens: u?.input_tokens_details?.cached_tokens ?? 0,
              reasoningTokens: u?.output_tokens_details?.reasoning_tokens ?? 0,
            };
            const why = ev.response?.incomplete_details?.reason;
            turn.stopReason =
              ev.type === 'response.completed'
                ? 'end_turn'
                : why === 'max_output_tokens'
                  ? 'max_tokens'
                  : why === 'content_filter'
                    ? 'refusal'
                    : 'other';
            break;
          }
          case 'response.failed': {
            const e = ev.response?.error;
            throw new ModelError(
              'server',
              `OpenAI response failed (${e?.code ?? 'error'}): ${e?.message ?? 'no detail'}`,
            );
          }
          case 'error':
            throw new ModelError(
              'server',
              `OpenAI stream error (${ev.code ?? 'error'}): ${ev.message ?? ''}`,
            );
        }
      },
    });
    turn.toolCalls = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, ...parseToolArgs(c.json) }));
    if (turn.toolCalls.length && turn.stopReason === 'end_turn') turn.stopReason = 'tool_use';
    if (refused && turn.stopReason === 'end_turn') turn.stopReason = 'refusal';
    const items = [...reasoning.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    if (items.length) turn.reasoning = { provider: 'openai', items } satisfies ReasoningBlocks;
    if (thinking) turn.thinking = thinking;
    return turn;
  }
}

import { MODEL_IDLE_TIMEOUT_MS } from './constants';
import { errorDetail, postJson, type RetryPolicy } from './http';
import { ModelError } from './model-error';
import { dataUrl, imagesAsNotes } from './image-notes';
import { readSse } from './sse';
import { parseToolArgs } from './tool-args';
import type {
  ModelImage,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  ProviderId,
  StopReason,
  StreamCallbacks,
} from './types';
import { OPENAI_IMAGE_LIMITS } from './image-limits';

// OpenAI Chat Completions (POST {base}/chat/completions, stream: true): also what Ollama, LM Studio,
// vLLM and llama.cpp servers speak. Tool calls stream as fragments keyed by `index`; a server that
// ignores `stream` and answers one JSON completion is accepted too.

export interface OpenAiOptions {
  provider: Extract<ProviderId, 'openai' | 'ollama'>;
  baseUrl: string;
  apiKey?: string;
  model: string;
  contextWindow: number;
  /** Whether the model takes images (a compatible server's model may be text only); default yes. */
  images?: boolean;
  retry?: RetryPolicy;
}

type WireMessage = Record<string, unknown>;

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string | object };
}
/** A streamed `delta` or a whole `message`: the fields this client reads. */
interface WireDelta {
  content?: string | null;
  reasoning_content?: string;
  reasoning?: string;
  tool_calls?: WireToolCall[];
}
interface WireChoice {
  delta?: WireDelta;
  message?: WireDelta;
  finish_reason?: string | null;
}
interface WireChunk {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: unknown;
}

const imagePart = (i: ModelImage) => ({ type: 'image_url', image_url: { url: dataUrl(i) } });

/**
 * A tool message holds text only, and every tool message must follow its assistant message
 * directly: the images the tools of one turn read go in one user message after the last of them.
 */
export function toOpenAiMessages(system: string, messages: ModelMessage[]): WireMessage[] {
  const out: WireMessage[] = system ? [{ role: 'system', content: system }] : [];
  let toolImages: { name: string; images: ModelImage[] }[] = [];
  const flushToolImages = () => {
    if (!toolImages.length) return;
    out.push({
      role: 'user',
      content: toolImages.flatMap((t) => [
        { type: 'text', text: `[The image ${t.name} returned:]` },
        ...t.images.map(imagePart),
      ]),
    });
    toolImages = [];
  };
  for (const m of messages) {
    if (m.role !== 'tool') flushToolImages();
    if (m.role === 'user')
      out.push({
        role: 'user',
        content: m.images?.length
          ? [...(m.text ? [{ type: 'text', text: m.text }] : []), ...m.images.map(imagePart)]
          : m.text,
      });
    else if (m.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: m.callId, content: m.content || '(empty)' });
      if (m.images?.length) toolImages.push({ name: m.name, images: m.images });
    } else {
      if (!m.text && !m.toolCalls.length) continue;
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
              })),
            }
          : {}),
      });
    }
  }
  flushToolImages();
  return out;
}

function stopReason(raw: unknown): StopReason {
  if (raw === 'stop') return 'end_turn';
  if (raw === 'tool_calls' || raw === 'function_call') return 'tool_use';
  if (raw === 'length') return 'max_tokens';
  return 'other';
}

interface CallParts {
  id: string;
  name: string;
  json: string;
}

export class OpenAiProvider implements ModelProvider {
  readonly provider: OpenAiOptions['provider'];
  readonly model: string;
  readonly contextWindow: number;
  readonly images: boolean;
  /** OpenAI's own; a compatible server documents none of its own, and these are the likeliest. */
  readonly imageLimits = OPENAI_IMAGE_LIMITS;
  private readonly label: string;

  constructor(private readonly opts: OpenAiOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.contextWindow = opts.contextWindow;
    this.images = opts.images ?? true;
    this.label = opts.provider === 'ollama' ? 'Ollama' : 'OpenAI-compatible server';
  }

  async complete(
    req: ModelRequest,
    signal: AbortSignal,
    cb: StreamCallbacks = {},
  ): Promise<ModelTurn> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const res = await postJson({
      provider: this.label,
      url,
      signal,
      retry: this.opts.retry,
      headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
      body: {
        model: this.model,
        stream: true,
        stream_options: { include_usage: true },
        messages: toOpenAiMessages(
          req.system,
          this.images ? req.messages : imagesAsNotes(req.messages, this.model),
        ),
        ...(req.tools.length
          ? {
              tools: req.tools.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
      },
    });
    const turn: ModelTurn = {
      text: '',
      toolCalls: [],
      stopReason: 'other',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    const calls = new Map<number, CallParts>();
    let thinking = '';
    const apply = (choice: WireChoice | undefined, streamed: boolean) => {
      if (!choice) return;
      const d = (streamed ? choice.delta : choice.message) ?? {};
      if (typeof d.content === 'string' && d.content) {
        turn.text += d.content;
        cb.onText?.(d.content);
      }
      const reasoning = d.reasoning_content ?? d.reasoning;
      if (typeof reasoning === 'string') thinking += reasoning;
      for (const [i, tc] of (Array.isArray(d.tool_calls) ? d.tool_calls : []).entries()) {
        const index = typeof tc.index === 'number' ? tc.index : i;
        const parts = calls.get(index) ?? { id: '', name: '', json: '' };
        if (tc.id) parts.id = tc.id;
        if (tc.function?.name) parts.name += tc.function.name;
        if (tc.function?.arguments) {
          parts.json +=
            typeof tc.function.arguments === 'string'
              ? tc.function.arguments
              : JSON.stringify(tc.function.arguments);
        }
        calls.set(index, parts);
      }
      if (choice.finish_reason) turn.stopReason = stopReason(choice.finish_reason);
    };
    const usage = (u: WireChunk['usage']) => {
      if (!u) return;
      turn.usage = { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 };
    };

    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const text = await res.text();
      let json: WireChunk;
      try {
        json = JSON.parse(text) as WireChunk;
      } catch {
        throw new ModelError(
          'protocol',
          `${this.label} answered neither an event stream nor JSON: ${text.slice(0, 200)}`,
        );
      }
      apply(json.choices?.[0], false);
      usage(json.usage);
    } else {
      if (!res.body) throw new ModelError('protocol', `${this.label} answered with an empty body`);
      let done = false;
      try {
        for await (const ev of readSse(res.body, MODEL_IDLE_TIMEOUT_MS, this.label)) {
          if (signal.aborted) throw new ModelError('aborted', 'stopped');
          if (ev.data === '[DONE]') {
            done = true;
            break;
          }
          let chunk: WireChunk;
          try {
            chunk = JSON.parse(ev.data) as WireChunk;
          } catch {
            throw new ModelError(
              'protocol',
              `${this.label} sent a chunk that is not JSON: ${ev.data.slice(0, 200)}`,
            );
          }
          if (chunk.error)
            throw new ModelError(
              'server',
              `${this.label} stream error: ${errorDetail(JSON.stringify(chunk))}`,
            );
          apply(chunk.choices?.[0], true);
          usage(chunk.usage);
        }
      } catch (err) {
        if (err instanceof ModelError) throw err;
        if (signal.aborted) throw new ModelError('aborted', 'stopped');
        throw new ModelError('network', `${this.label} stream broke: ${(err as Error).message}`);
      }
      // Some servers close without [DONE]; a finish_reason is as good an end marker.
      if (!done && turn.stopReason === 'other')
        throw new ModelError('network', `${this.label} stream ended before [DONE]`);
    }
    turn.toolCalls = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({
        id: c.id || `call_${i}_${Date.now().toString(36)}`,
        name: c.name,
        ...parseToolArgs(c.json),
      }));
    if (turn.toolCalls.length && turn.stopReason !== 'max_tokens') turn.stopReason = 'tool_use';
    if (thinking) turn.thinking = thinking;
    return turn;
  }
}

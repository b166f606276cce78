import type { Ollama as OllamaClient } from 'ollama';
import type { RetryPolicy } from './http';
import { httpModelError, ModelError, networkModelError } from './model-error';
import { imagesAsNotes } from './image-notes';
import { probeJson } from './probe-json';
import { sdkStream } from './sdk-stream';
import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
  StopReason,
  StreamCallbacks,
} from './types';
import { DEFAULT_IMAGE_LIMITS } from './image-limits';

// Ollama's native chat API (POST /api/chat, NDJSON stream) through the official client, imported
// when the first request is made. Unlike its OpenAI-compatible endpoint, it takes
// options.num_ctx: every request asks for exactly the context the app budgets for, so Ollama never
// truncates a long prompt to its small default in silence. The client has no per-call signal, so
// each call gets a client whose fetch carries the call's.

export interface OllamaOptions {
  /** Ollama's root URL (no /v1). */
  baseUrl: string;
  model: string;
  /** The context the app assumes; sent as options.num_ctx. */
  contextWindow: number;
  /** Whether the model takes images (its /api/show capabilities include "vision"). */
  images?: boolean;
  retry?: RetryPolicy;
}

type WireMessage = {
  role: string;
  content: string;
  images?: string[];
  thinking?: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
};

export function toOllamaMessages(system: string, messages: ModelMessage[]): WireMessage[] {
  const out: WireMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user')
      out.push({
        role: 'user',
        content: m.text,
        ...(m.images?.length ? { images: m.images.map((i) => i.data) } : {}),
      });
    else if (m.role === 'tool')
      out.push({
        role: 'tool',
        content: m.content || '(empty)',
        tool_name: m.name,
        ...(m.images?.length ? { images: m.images.map((i) => i.data) } : {}),
      });
    else
      out.push({
        role: 'assistant',
        content: m.text,
        ...(m.toolCalls.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                function: {
                  name: c.name,
                  arguments:
                    c.args && typeof c.args === 'object' ? (c.args as Record<string, unknown>) : {},
                },
              })),
            }
          : {}),
      });
  }
  return out;
}

interface Chunk {
  message?: WireMessage;
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
}

function stopReason(raw: string | undefined, calls: number): StopReason {
  if (calls) return 'tool_use';
  if (raw === 'length') return 'max_tokens';
  if (raw === 'stop' || raw === undefined) return 'end_turn';
  return 'other';
}

export class OllamaProvider implements ModelProvider {
  readonly provider = 'ollama' as const;
  readonly model: string;
  readonly contextWindow: number;
  readonly images: boolean;
  readonly imageLimits = DEFAULT_IMAGE_LIMITS;

  constructor(private readonly opts: OllamaOptions) {
    this.model = opts.model;
    this.contextWindow = opts.contextWindow;
    this.images = opts.images ?? true;
  }

  body(req: ModelRequest) {
    return {
      model: this.model,
      messages: toOllamaMessages(
        req.system,
        this.images ? req.messages : imagesAsNotes(req.messages, this.model),
      ),
      stream: true as const,
      options: { num_ctx: this.contextWindow, num_predict: req.maxTokens },
      ...(req.tools.length
        ? {
            tools: req.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
    };
  }

  async complete(
    req: ModelRequest,
    signal: AbortSignal,
    cb: StreamCallbacks = {},
  ): Promise<ModelTurn> {
    const { Ollama } = await import('ollama');
    const url = `${this.opts.baseUrl}/api/chat`;
    const turn: ModelTurn = {
      text: '',
      toolCalls: [],
      stopReason: 'other',
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    const calls: ModelToolCall[] = [];
    let thinking = '';
    let done = false;
    let reason: string | undefined;
    await sdkStream<Chunk>({
      provider: 'Ollama',
      signal,
      retry: this.opts.retry,
      open: async (local) => {
        const client: OllamaClient = new Ollama({
          host: this.opts.baseUrl,
          fetch: (input, init) =>
            fetch(input, {
              ...init,
              signal: init?.signal ? AbortSignal.any([init.signal, local]) : local,
            }),
        });
        return (await client.chat(
          this.body(req) as Parameters<typeof client.chat>[0] & { stream: true },
        )) as AsyncIterable<Chunk>;
      },
      error: (e, phase) => {
        if (phase === 'stream')
          return new ModelError('server', `Ollama stream error: ${(e as Error).message}`);
        const status = (e as { status_code?: number }).status_code;
        if (typeof status === 'number')
          return httpModelError('Ollama', status, (e as Error).message);
        return networkModelError('Ollama', url, e);
      },
      endMarker: 'done',
      ended: () => done,
      onEvent: (chunk) => {
        const m = chunk.message;
        if (m?.content) {
          turn.text += m.content;
          cb.onText?.(m.content);
        }
        if (m?.thinking) thinking += m.thinking;
        for (const tc of m?.tool_calls ?? [])
          calls.push({
            id: `call_${calls.length}_${Date.now().toString(36)}`,
            name: tc.function.name,
            args: tc.function.arguments ?? {},
          });
        if (chunk.done) {
          done = true;
          reason = chunk.done_reason;
          // prompt_eval_count leaves out a prefix Ollama still had evaluated (its KV cache).
          turn.usage = {
            inputTokens: chunk.prompt_eval_count ?? 0,
            outputTokens: chunk.eval_count ?? 0,
          };
        }
      },
    });
    turn.toolCalls = calls;
    turn.stopReason = stopReason(reason, calls.length);
    if (thinking) turn.thinking = thinking;
    return turn;
  }
}

export interface OllamaModelInfo {
  /** The context length the model was trained for; null when unknown. */
  contextLength: number | null;
  /** Whether it takes images ("vision" among its capabilities); false when unknown. */
  vision: boolean;
}

/** What /api/show says of a model (nothing known when it does not answer). */
export async function ollamaModelInfo(
  root: string,
  model: string,
  timeoutMs: number,
): Promise<OllamaModelInfo> {
  const info: OllamaModelInfo = { contextLength: null, vision: false };
  try {
    const json = (await probeJson(`${root}/api/show`, { body: { model }, timeoutMs })) as {
      model_info?: Record<string, unknown>;
      capabilities?: unknown;
    } | null;
    if (json === null) return info;
    for (const [k, v] of Object.entries(json.model_info ?? {}))
      if (k.endsWith('.context_length') && typeof v === 'number' && v > 0) info.contextLength = v;
    info.vision = Array.isArray(json.capabilities) && json.capabilities.includes('vision');
    return info;
  } catch {
    return info;
  }
}

import type { ImageLimits } from './image-limits';

// The provider-neutral shape of a conversation and of one model turn. The loop builds these from
// the session log; each provider translates them to its wire protocol and back.

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when the model's JSON did not parse (see `argsError`). */
  args: unknown;
  argsError?: string;
}

/** An image the model is shown (pasted by the user, or an image file a tool read). */
export interface ModelImage {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** Base64 of the file's bytes. */
  data: string;
  /** The file it was read from (read_file); a pasted image has none. */
  name?: string;
  /** Its size in pixels from its header (null: the header did not say). */
  width?: number | null;
  height?: number | null;
}

/**
 * A provider's own reasoning blocks, verbatim (Anthropic thinking / redacted_thinking with their
 * signatures; OpenAI Responses reasoning items with encrypted_content). They go back unchanged,
 * and only to the provider that produced them: the signatures are that provider's.
 */
export interface ReasoningBlocks {
  provider: string;
  items: { type: string; [key: string]: unknown }[];
}

export type ModelMessage =
  | { role: 'user'; text: string; images?: ModelImage[] }
  | {
      role: 'assistant';
      text: string;
      toolCalls: ModelToolCall[];
      reasoning?: ReasoningBlocks;
      /** The turn was paused by the provider (pause_turn): it is continued, not answered. */
      paused?: boolean;
    }
  | {
      role: 'tool';
      callId: string;
      name: string;
      content: string;
      isError: boolean;
      images?: ModelImage[];
    };

export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** Cap on output tokens for this turn (thinking, when on, is budgeted on top). */
  maxTokens: number;
  /** Set for side calls (a compaction summary): no thinking, no cache breakpoints to keep warm. */
  plain?: boolean;
}

export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  /** Anthropic paused a long turn: send it back as is and the model continues. */
  | 'pause_turn'
  /** The model declined to continue. */
  | 'refusal'
  | 'other';

export interface ModelUsage {
  /** Every prompt token, cached or not. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens: read from the prompt cache. */
  cacheReadTokens?: number;
  /** Of inputTokens: written to the prompt cache. */
  cacheWriteTokens?: number;
  /** Of outputTokens: spent reasoning. */
  reasoningTokens?: number;
}

export interface ModelTurn {
  text: string;
  thinking?: string;
  reasoning?: ReasoningBlocks;
  toolCalls: ModelToolCall[];
  stopReason: StopReason;
  usage: ModelUsage;
}

/** Anthropic's own shape for extended thinking. */
export type ThinkingSetting = 'off' | { type: 'enabled'; budget_tokens: number };

export type ProviderId = 'anthropic' | 'openai' | 'ollama';

export interface StreamCallbacks {
  /** Visible text as it streams (transient assistant_delta). */
  onText?(delta: string): void;
}

/** One configured model behind one wire protocol. */
export interface ModelProvider {
  readonly provider: ProviderId;
  readonly model: string;
  /** Tokens the model accepts (input + output); compaction keeps the context under it. */
  readonly contextWindow: number;
  /**
   * Whether the model takes images (absent: it does). One that does not is sent a note in each
   * image's place (image-notes.ts), never the image.
   */
  readonly images?: boolean;
  /** What the provider documents about images per request (image-limits.ts); absent: the defaults. */
  readonly imageLimits?: ImageLimits;
  complete(req: ModelRequest, signal: AbortSignal, callbacks?: StreamCallbacks): Promise<ModelTurn>;
}

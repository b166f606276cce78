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

export type ModelMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ModelToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string; isError: boolean };

export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** Cap on output tokens for this turn. */
  maxTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelTurn {
  text: string;
  thinking?: string;
  toolCalls: ModelToolCall[];
  stopReason: StopReason;
  usage: ModelUsage;
}

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
  complete(req: ModelRequest, signal: AbortSignal, callbacks?: StreamCallbacks): Promise<ModelTurn>;
}

import type { ModelMessage, ToolSpec } from '../models/types';
import { CHARS_PER_TOKEN } from './constants';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../models/constants';

// A cheap token estimate (characters / 4) for budgeting the context window. It only has to be in
// the right range: the provider's own context-overflow error is the backstop.

export function estimateTokens(
  system: string,
  messages: readonly ModelMessage[],
  tools: readonly ToolSpec[],
): number {
  return promptTokens(
    system,
    tools,
    messages.reduce((n, m) => n + messageChars(m), 0),
  );
}

/** The estimate from the messages' size already summed (an agent's context keeps it as it grows). */
export function promptTokens(
  system: string,
  tools: readonly ToolSpec[],
  messageCharsTotal: number,
): number {
  return Math.ceil(
    (system.length + JSON.stringify(tools).length + messageCharsTotal) / CHARS_PER_TOKEN,
  );
}

/** One message's size as the estimate counts it. */
export function messageChars(m: ModelMessage): number {
  return m.role === 'assistant'
    ? m.text.length + JSON.stringify(m.toolCalls).length
    : m.role === 'user'
      ? m.text.length
      : m.content.length;
}

/** Output tokens asked for: a quarter of the window at most, so small local models keep room for input. */
export function outputBudget(contextWindow: number): number {
  return Math.max(256, Math.min(DEFAULT_MAX_OUTPUT_TOKENS, Math.floor(contextWindow / 4)));
}

/** Tokens the prompt may use. */
export function inputBudget(contextWindow: number): number {
  return contextWindow - outputBudget(contextWindow);
}

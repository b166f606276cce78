import type { ProviderId } from './types';

// What the app knows about a model from its name alone: which provider serves it and how large its
// context window is. A config value (`model.context_window`) always wins over these guesses.

const WINDOWS: [RegExp, number][] = [
  [/^claude/i, 200_000],
  [/^gpt-5/i, 400_000],
  [/^gpt-4\.1/i, 1_000_000],
  [/^(gpt-4o|gpt-4-turbo)/i, 128_000],
  [/^gpt-4/i, 8_192],
  [/^(o1|o3|o4)/i, 200_000],
  [/codex/i, 400_000],
];
/** Local servers (Ollama's default num_ctx is small) and unknown models: a conservative window. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

export function contextWindowFor(model: string): number {
  for (const [pattern, tokens] of WINDOWS) if (pattern.test(model)) return tokens;
  return DEFAULT_CONTEXT_WINDOW;
}

/** The provider a model name implies, if any: `claude-*` is Anthropic, `gpt-*`/o-series OpenAI. */
export function providerForModelName(model: string): ProviderId | undefined {
  if (/^claude/i.test(model)) return 'anthropic';
  if (/^(gpt-|o\d|chatgpt|codex)/i.test(model)) return 'openai';
  return undefined;
}

/** `anthropic:claude-x`, `openai:gpt-5`, `ollama:qwen3` or a bare name. */
export function parseModelRef(ref: string): { provider?: ProviderId; model: string } {
  const m = /^(anthropic|openai|ollama):(.+)$/.exec(ref.trim());
  if (m) return { provider: m[1] as ProviderId, model: m[2]! };
  return { model: ref.trim() };
}

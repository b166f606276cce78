import type { AppConfig } from '../config/schema';
import type { ModelUsage } from './types';

// The cost estimate: USD per million tokens by model name, the longest matching prefix winning,
// so `claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`. The built-in table is the
// providers' list prices when this was written; configs/app.json `prices` replaces any entry (a
// new price, a local model priced at 0, a negotiated rate). Cache reads and writes fall back to
// the input price when a model has no cache prices.

export type ModelPrice = AppConfig['prices'][string];

export const BUILTIN_PRICES: Record<string, ModelPrice> = {
  'claude-opus-4': { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-haiku-4': { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
  'gpt-5': { input: 1.25, output: 10, cache_read: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cache_read: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cache_read: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cache_read: 0.5 },
  'gpt-4o': { input: 2.5, output: 10, cache_read: 1.25 },
  o3: { input: 2, output: 8, cache_read: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cache_read: 0.275 },
};

export function priceFor(
  model: string,
  configured: Record<string, ModelPrice> = {},
): ModelPrice | undefined {
  const name = model.replace(/^(anthropic|openai|ollama):/, '');
  let best: [string, ModelPrice] | undefined;
  for (const table of [BUILTIN_PRICES, configured])
    for (const [prefix, price] of Object.entries(table))
      if (name.startsWith(prefix) && (!best || prefix.length >= best[0].length))
        best = [prefix, price];
  return best?.[1];
}

/** USD for one call, or undefined when the model has no price. */
export function estimateCost(
  model: string,
  usage: ModelUsage,
  configured?: Record<string, ModelPrice>,
): number | undefined {
  const p = priceFor(model, configured);
  if (!p) return undefined;
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - read - write);
  const usd =
    fresh * p.input +
    read * (p.cache_read ?? p.input) +
    write * (p.cache_write ?? p.input) +
    usage.outputTokens * p.output;
  return usd / 1_000_000;
}

import type { SessionEventOf } from '../../../shared/protocol/events';

/**
 * A session's model usage as its log reports it: the newest root call (how full the context
 * window is, and where compaction starts) and the running totals (tokens, cache reads, the cost
 * estimate from the price table in configs/app.json).
 */
export class UsageTotals {
  /** The newest call of the root agent: its prompt is the context as it stands. */
  last: SessionEventOf<'usage'> | null = null;
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;
  cacheReadTokens = 0;
  costUsd = 0;
  /** Calls whose model had no price: the cost is a lower bound when there are any. */
  unpriced = 0;

  add(e: SessionEventOf<'usage'>): void {
    this.calls++;
    this.inputTokens += e.input_tokens;
    this.outputTokens += e.output_tokens;
    this.cacheReadTokens += e.cache_read_tokens ?? 0;
    if (e.cost_usd === undefined) this.unpriced++;
    else this.costUsd += e.cost_usd;
    if (e.agent_id === 'root') this.last = e;
  }

  /** Share of the window the context fills (0..1), or null before the first call. */
  get fill(): number | null {
    const l = this.last;
    if (!l?.context_window) return null;
    return Math.min(1, (l.input_tokens + l.output_tokens) / l.context_window);
  }

  /** Share of the window at which the context is compacted. */
  get compactAt(): number | null {
    const l = this.last;
    return l?.context_window && l.compact_at_tokens ? l.compact_at_tokens / l.context_window : null;
  }
}

import type { UsageTotals } from '../../state/usage-totals';
import { formatPercent as pct, formatTokens as tokens } from '../../lib/format';

const usd = (n: number) => (n < 0.01 && n > 0 ? '<$0.01' : `$${n.toFixed(2)}`);

/**
 * How full the model's context window is after the newest call, with a tick where compaction
 * starts, and the session's estimated cost (prices per model in configs/app.json `prices`).
 */
export function ContextMeter({ usage }: { usage: UsageTotals }) {
  const fill = usage.fill;
  const last = usage.last;
  if (fill === null || !last) return null;
  const at = usage.compactAt;
  const used = last.input_tokens + last.output_tokens;
  const cached = usage.inputTokens ? usage.cacheReadTokens / usage.inputTokens : 0;
  const title =
    `Context: ${tokens(used)} of ${tokens(last.context_window ?? 0)} tokens (${pct(fill)})` +
    (at !== null ? `; compacted at ${pct(at)}` : '') +
    `\nEstimated cost: ${usd(usage.costUsd)}${usage.unpriced ? '+' : ''}` +
    `\nModel: ${last.model}. ${usage.calls} calls, ${tokens(usage.inputTokens)} in (${pct(cached)} from cache), ${tokens(usage.outputTokens)} out` +
    (usage.unpriced
      ? `\n${usage.unpriced} calls of a model with no price in configs/app.json "prices"`
      : '');
  const tone = at !== null && fill >= at * 0.9 ? 'warning' : 'neutral';
  return (
    <div className={`context-meter ${tone}`} title={title}>
      <ContextBar
        fill={fill}
        mark={at}
        valuetext={`${pct(fill)} of the context window${at !== null ? `, compaction at ${pct(at)}` : ''}`}
      />
      <span className="small muted">{pct(fill)}</span>
      <span className="small muted" aria-label="Estimated cost">
        {usd(usage.costUsd)}
        {usage.unpriced ? '+' : ''}
      </span>
    </div>
  );
}

/** A context meter's bar: how full the window is (0..1), with a tick at `mark` where there is one. */
export function ContextBar({
  fill,
  mark,
  valuetext,
}: {
  fill: number;
  mark: number | null;
  valuetext: string;
}) {
  return (
    <div
      role="meter"
      aria-label="Context window"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(fill * 100)}
      aria-valuetext={valuetext}
      className="context-meter-bar"
    >
      <span className="context-meter-fill" style={{ width: pct(fill) }} />
      {mark !== null && <span className="context-meter-mark" style={{ left: pct(mark) }} />}
    </div>
  );
}

import type { SessionViewState } from '../../state/session-view-store';
import { formatPercent as pct, formatTokens as tokens } from '../../lib/format';

/**
 * An external agent's context window use and its cost so far, as the agent reports them (ACP
 * usage_update): the app's own meter reads the app's model calls, which an external agent makes
 * none of.
 */
export function AgentUsageMeter({ usage }: { usage: NonNullable<SessionViewState['agentUsage']> }) {
  const fill = usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
  const cost = usage.cost ? `${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : null;
  return (
    <div
      className="context-meter neutral"
      title={`Context: ${tokens(usage.used)} of ${tokens(usage.size)} tokens (${pct(fill)}), as the agent reports it${cost ? `\nCost so far: ${cost}` : ''}`}
    >
      <div
        role="meter"
        aria-label="Context window"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fill * 100)}
        aria-valuetext={`${pct(fill)} of the agent's context window`}
        className="context-meter-bar"
      >
        <span className="context-meter-fill" style={{ width: pct(fill) }} />
      </div>
      <span className="small muted">{pct(fill)}</span>
      {cost && (
        <span className="small muted" aria-label="Cost so far">
          {cost}
        </span>
      )}
    </div>
  );
}

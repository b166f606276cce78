import type { SessionViewState } from '../../state/session-view-store';
import { formatPercent as pct, formatTokens as tokens } from '../../lib/format';
import { ContextBar } from './ContextMeter';

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
      <ContextBar
        fill={fill}
        mark={null}
        valuetext={`${pct(fill)} of the agent's context window`}
      />
      <span className="small muted">{pct(fill)}</span>
      {cost && (
        <span className="small muted" aria-label="Cost so far">
          {cost}
        </span>
      )}
    </div>
  );
}

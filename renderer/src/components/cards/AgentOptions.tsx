import type { ApprovalOption } from '../../../../shared/protocol/events';
import { APPROVE_KEYS, DENY_KEYS } from '../../lib/approval-keys';

/** Which way an option decides: allow_once / allow_always allow, the reject kinds deny. */
export const optionDecision = (o: ApprovalOption): 'allow' | 'deny' =>
  o.kind.startsWith('allow') ? 'allow' : 'deny';

/** The option Alt+A / Alt+D picks: the agent's "once" choice of that side, else its first of that side. */
export function shortcutOption(
  options: readonly ApprovalOption[],
  decision: 'allow' | 'deny',
): ApprovalOption | undefined {
  const side = decision === 'allow' ? 'allow' : 'reject';
  return (
    options.find((o) => o.kind === `${side}_once`) ?? options.find((o) => o.kind.startsWith(side))
  );
}

const CLASS: Record<ApprovalOption['kind'], string> = {
  allow_once: 'primary',
  allow_always: '',
  reject_once: 'danger',
  reject_always: 'danger',
};

/**
 * An external agent's permission request answered with the agent's own choices (ACP
 * session/request_permission), each a button with the agent's label, in the agent's order; the
 * ones Alt+A / Alt+D press show their keys.
 */
export function AgentOptions({
  options,
  busy,
  onPick,
}: {
  options: readonly ApprovalOption[];
  busy: boolean;
  onPick: (o: ApprovalOption) => void;
}) {
  const keys = new Map<string, string>();
  const allow = shortcutOption(options, 'allow');
  const deny = shortcutOption(options, 'deny');
  if (allow) keys.set(allow.id, APPROVE_KEYS);
  if (deny) keys.set(deny.id, DENY_KEYS);
  return (
    <div className="agent-options" role="group" aria-label="The agent's choices">
      {options.map((o) => {
        const key = keys.get(o.id);
        return (
          <button
            key={o.id}
            type="button"
            className={CLASS[o.kind]}
            disabled={busy}
            aria-keyshortcuts={key}
            title={`${o.name}${key ? ` (${key})` : ''}`}
            onClick={() => onPick(o)}
          >
            {o.name} {key && <kbd aria-hidden="true">{key}</kbd>}
          </button>
        );
      })}
    </div>
  );
}

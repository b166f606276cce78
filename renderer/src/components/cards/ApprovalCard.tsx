import { memo, useState } from 'react';
import type { ApprovalItem } from '../../state/timeline-items';
import { useClient } from '../../client-context';
import { useUi } from '../../state/ui-store';
import { decideApproval, errorText } from '../../state/agent-actions';
import { useSessionId } from '../timeline/session-context';
import { DiffView } from './DiffView';

const looksLikeDiff = (text: string) => /^(--- |@@ )/m.test(text) && /^@@ /m.test(text);

/**
 * A risky action waiting for the person: the whole command or the whole diff is on screen, never
 * a summary only, before Approve or Deny can be pressed.
 */
export const ApprovalCard = memo(function ApprovalCard({ item }: { item: ApprovalItem }) {
  const client = useClient();
  const sessionId = useSessionId();
  const layout = useUi((s) => s.diffLayout);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = !item.decision;
  // Decided approvals fold to their header line; the detail stays one click away.
  const stored = useUi((s) => s.expanded[item.key]);
  const setExpanded = useUi((s) => s.setExpanded);
  const open = pending || (stored ?? false);

  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      await decideApproval(
        client,
        sessionId,
        item.approvalId,
        decision,
        decision === 'deny' && reason.trim() ? reason.trim() : undefined,
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      className={`card approval ${pending ? 'pending' : item.decision!.decision}`}
      aria-label={`Approval: ${item.tool}`}
    >
      <header className={`card-head ${pending ? 'static' : ''}`}>
        {pending ? (
          <ApprovalTitle item={item} />
        ) : (
          <button
            type="button"
            className="card-toggle"
            aria-expanded={open}
            onClick={() => setExpanded(item.key, !open)}
          >
            <ApprovalTitle item={item} />
          </button>
        )}
      </header>
      {open && (
        <div className="card-body">
          {looksLikeDiff(item.detail) ? (
            <DiffView text={item.detail} layout={layout} />
          ) : (
            <pre className="code small term" aria-label="Full command">
              {item.detail}
            </pre>
          )}
          {pending && (
            <div className="actions">
              <input
                type="text"
                className="reason"
                aria-label="Reason (optional)"
                placeholder="Reason, if you deny (optional)"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
              {error && (
                <span className="error-text" role="alert">
                  {error}
                </span>
              )}
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() => decide('deny')}
              >
                Deny
              </button>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => decide('allow')}
              >
                Approve
              </button>
            </div>
          )}
        </div>
      )}
    </article>
  );
});

function ApprovalTitle({ item }: { item: ApprovalItem }) {
  const d = item.decision;
  return (
    <>
      <span
        className={`status-dot ${!d ? 'waiting' : d.decision === 'allow' ? 'done' : 'failed'}`}
        aria-hidden="true"
      />
      <span className="card-title">
        {!d ? 'Approve?' : d.decision === 'allow' ? 'Approved' : 'Denied'}
      </span>
      <span className="card-subject">{item.summary}</span>
      {d && (
        <span className="card-meta">
          {d.by === 'policy' ? 'by policy' : 'by you'}
          {d.reason ? `: ${d.reason}` : ''}
        </span>
      )}
    </>
  );
}

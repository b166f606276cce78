import { memo, useState } from 'react';
import type { PlanItem } from '../../state/timeline-items';
import { useClient } from '../../client-context';
import { decidePlan, errorText } from '../../state/agent-actions';
import { useSessionId } from '../timeline/session-context';
import { Markdown } from '../common/Markdown';

/** Plan mode: the drafted plan, approved to act on it or sent back with feedback. */
export const PlanCard = memo(function PlanCard({ item }: { item: PlanItem }) {
  const client = useClient();
  const sessionId = useSessionId();
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = !item.decision;

  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setError(null);
    try {
      await decidePlan(client, sessionId, item.planId, decision, feedback.trim() || undefined);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      className={`card plan ${pending ? 'pending' : item.decision!.decision}`}
      aria-label="Plan"
    >
      <header className="card-head static">
        <span
          className={`status-dot ${pending ? 'waiting' : item.decision!.decision === 'approve' ? 'done' : 'failed'}`}
          aria-hidden="true"
        />
        <span className="card-title">Plan</span>
        <span className="card-meta">
          {pending
            ? 'waiting for your decision'
            : item.decision!.decision === 'approve'
              ? 'approved'
              : 'sent back'}
        </span>
      </header>
      <div className="card-body">
        <Markdown text={item.text} />
        {item.decision?.feedback && (
          <p className="muted small">Feedback: {item.decision.feedback}</p>
        )}
        {pending && (
          <div className="actions column">
            <textarea
              aria-label="Feedback on the plan"
              rows={2}
              placeholder="What to change (sent with Reject)"
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
            />
            <div className="actions">
              {error && (
                <span className="error-text" role="alert">
                  {error}
                </span>
              )}
              <button type="button" disabled={busy} onClick={() => decide('reject')}>
                Reject plan
              </button>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => decide('approve')}
              >
                Approve plan
              </button>
            </div>
          </div>
        )}
      </div>
    </article>
  );
});

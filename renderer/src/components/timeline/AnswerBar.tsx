import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { useSessionView, useSessionViews } from '../../state/session-views-context';
import type { AnswerInfo } from '../../state/timeline-items';
import { focusComposer } from '../../lib/focus';
import { CAPABILITIES } from '../conversation/Composer';

/**
 * Under a turn's answer: Regenerate (the latest turn's, once its run is over) makes the answer
 * again in place, the question sent once; a regenerated turn flips between its answer versions.
 */
export function AnswerBar({ sessionId, info }: { sessionId: string; info: AnswerInfo }) {
  const client = useClient();
  const views = useSessionViews();
  const [error, setError] = useState<string | null>(null);
  const active = useSessionView(
    sessionId,
    (v) => v.runState === 'running' || v.runState === 'waiting',
  );
  const { versions, regenerate } = info;
  // A run under way is making the latest answer: nothing to flip to or redo until it ends.
  if (active && regenerate) return null;
  const redo = async () => {
    if (!regenerate) return;
    setError(null);
    try {
      await client.invoke('sessions.regenerate', {
        id: sessionId,
        message_id: regenerate,
        capabilities: CAPABILITIES,
      });
      focusComposer();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const show = (n: number) => versions && views.get(sessionId).showVersion(versions.turn, n);
  return (
    <div className="answer-bar" role="group" aria-label="Answer">
      {versions && (
        <span className="answer-versions">
          <button
            type="button"
            className="link-button small"
            aria-label="Previous version"
            disabled={versions.shown === 0}
            onClick={() => show(versions.shown - 1)}
          >
            ‹
          </button>
          <span className="small muted" aria-live="polite">
            Version {versions.shown + 1} of {versions.count}
          </span>
          <button
            type="button"
            className="link-button small"
            aria-label="Next version"
            disabled={versions.shown === versions.count - 1}
            onClick={() => show(versions.shown + 1)}
          >
            ›
          </button>
        </span>
      )}
      {regenerate && (
        <button
          type="button"
          className="link-button small"
          title="Make this answer again; this one stays as a version to flip back to"
          onClick={() => void redo()}
        >
          Regenerate
        </button>
      )}
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

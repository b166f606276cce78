import { useState } from 'react';
import { useClient } from '../../client-context';
import { useHostQuery } from '../../lib/use-host-query';
import { errorText } from '../../state/agent-actions';
import { pluralize } from '../../lib/format';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import { Dialog } from '../common/Dialog';

/**
 * The confirm before Discard, naming what is lost: files not committed and commits no other branch
 * holds (asked of the host when the dialog opens). Cancel has the focus: Enter keeps the work.
 */
export function DiscardDialog({
  sessionId,
  worktree,
  onClose,
  onDiscarded,
}: {
  sessionId: string;
  worktree: SessionWorktree;
  onClose: () => void;
  onDiscarded: () => void;
}) {
  const client = useClient();
  const loss = useHostQuery('worktrees.loss', { id: sessionId });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const l = loss.data;
  const nothingLost = l && l.uncommitted.length === 0 && l.commits.length === 0;

  const discard = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.invoke('worktrees.discard', { id: sessionId });
      onClose();
      onDiscarded();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog label="Discard the worktree?" onClose={onClose} className="confirm discard">
      <h2>Discard branch {worktree.branch}?</h2>
      <p>
        The worktree at <code>{worktree.path}</code> and the branch are removed. The conversation is
        kept.
      </p>
      {loss.error && (
        <p className="error-text" role="alert">
          {loss.error}
        </p>
      )}
      {!l && !loss.error && <p className="muted small">Finding what would be lost…</p>}
      {nothingLost && <p>Nothing is lost: every change is on another branch too.</p>}
      {l && l.uncommitted.length > 0 && (
        <div>
          <p className="warn-text">Lost: {pluralize(l.uncommitted.length, 'file')} not committed</p>
          <ul aria-label="Files not committed" className="loss-list">
            {l.uncommitted.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {l && l.commits.length > 0 && (
        <div>
          <p className="warn-text">
            Lost: {pluralize(l.commits.length, 'commit')} no other branch holds
          </p>
          <ul aria-label="Commits lost" className="loss-list">
            {l.commits.map((c) => (
              <li key={c.sha}>
                <code>{c.sha.slice(0, 8)}</code> {c.subject}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={!l || busy}
          onClick={() => void discard()}
        >
          Discard
        </button>
      </div>
    </Dialog>
  );
}

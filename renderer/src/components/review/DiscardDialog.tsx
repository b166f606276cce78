import { useState } from 'react';
import { useClient } from '../../client-context';
import { useHostQuery } from '../../lib/use-host-query';
import { errorText } from '../../state/agent-actions';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import { Dialog } from '../common/Dialog';
import { WorktreeLossList } from './WorktreeLossList';

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
      {l && <WorktreeLossList loss={l} />}
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

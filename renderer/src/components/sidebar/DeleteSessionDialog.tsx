import { useState } from 'react';
import { useClient } from '../../client-context';
import { useHostQuery } from '../../lib/use-host-query';
import { errorText } from '../../state/agent-actions';
import type { SessionSummary } from '../../../../shared/protocol/session-summary';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import { Dialog } from '../common/Dialog';
import { WorktreeLossList } from '../review/WorktreeLossList';

/**
 * The confirm before a session is deleted. A session in its own worktree also asks what becomes of
 * the worktree and its branch (issue 28 part 4): kept for the user's tools (the default), or
 * removed, naming the files not committed and the commits no other branch holds that go with it.
 * Cancel has the focus: Enter deletes nothing.
 */
export function DeleteSessionDialog({
  session,
  onClose,
}: {
  session: SessionSummary;
  onClose: () => void;
}) {
  const wt = session.worktree && !session.worktree.removed_at ? session.worktree : null;
  return (
    <Dialog label="Delete session?" onClose={onClose} className="confirm delete-session">
      <h2>Delete “{session.title}”?</h2>
      <p>
        Its history and the output of its shells are removed from this computer. This cannot be
        undone.
      </p>
      {wt ? (
        <WorktreeChoice sessionId={session.id} worktree={wt} onClose={onClose} />
      ) : (
        <Actions sessionId={session.id} remove={null} onClose={onClose} />
      )}
    </Dialog>
  );
}

function WorktreeChoice({
  sessionId,
  worktree,
  onClose,
}: {
  sessionId: string;
  worktree: SessionWorktree;
  onClose: () => void;
}) {
  const [remove, setRemove] = useState(false);
  const loss = useHostQuery('worktrees.loss', { id: sessionId });
  return (
    <>
      <fieldset className="worktree-choice">
        <legend>Its worktree and branch {worktree.branch}</legend>
        <label className="radio">
          <input type="radio" name="worktree" checked={!remove} onChange={() => setRemove(false)} />
          <span>
            Keep them at <code>{worktree.path}</code> for your own tools
          </span>
        </label>
        <label className="radio">
          <input type="radio" name="worktree" checked={remove} onChange={() => setRemove(true)} />
          Remove the worktree and the branch
        </label>
      </fieldset>
      {remove && loss.error && (
        <p className="error-text" role="alert">
          {loss.error}
        </p>
      )}
      {remove && !loss.data && !loss.error && (
        <p className="muted small">Finding what would be lost…</p>
      )}
      {remove && loss.data && <WorktreeLossList loss={loss.data} />}
      <Actions
        sessionId={sessionId}
        remove={remove ? (loss.data ?? 'unknown') : null}
        onClose={onClose}
        onRefused={loss.reload}
      />
    </>
  );
}

/**
 * Cancel and Delete. `remove`: null keeps the worktree; otherwise what the user was shown would be
 * lost ('unknown' while it is read: Delete waits). Losing work is confirmed only when some was
 * shown: work that appeared since the list was read refuses the delete, and the list is read again.
 */
function Actions({
  sessionId,
  remove,
  onClose,
  onRefused,
}: {
  sessionId: string;
  remove: { uncommitted: string[]; commits: unknown[] } | 'unknown' | null;
  onClose: () => void;
  onRefused?: () => void;
}) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const del = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.invoke(
        'sessions.delete',
        remove && remove !== 'unknown'
          ? {
              id: sessionId,
              worktree: 'remove',
              discard_work: remove.uncommitted.length + remove.commits.length > 0,
            }
          : { id: sessionId },
      );
      onClose();
    } catch (err) {
      setError(errorText(err));
      onRefused?.();
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy || remove === 'unknown'}
          onClick={() => void del()}
        >
          {remove ? 'Delete and remove' : 'Delete'}
        </button>
      </div>
    </>
  );
}

import { pluralize } from '../../lib/format';
import type { WorktreeLoss } from '../../../../shared/protocol/commands/worktrees';

/**
 * What removing a session's worktree loses, named for a confirm (Discard, or deleting the session
 * with its worktree): files not committed and commits no other branch holds, or that nothing is.
 */
export function WorktreeLossList({ loss }: { loss: WorktreeLoss }) {
  if (loss.uncommitted.length === 0 && loss.commits.length === 0)
    return <p>Nothing is lost: every change is on another branch too.</p>;
  return (
    <>
      {loss.uncommitted.length > 0 && (
        <div>
          <p className="warn-text">
            Lost: {pluralize(loss.uncommitted.length, 'file')} not committed
          </p>
          <ul aria-label="Files not committed" className="loss-list">
            {loss.uncommitted.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {loss.commits.length > 0 && (
        <div>
          <p className="warn-text">
            Lost: {pluralize(loss.commits.length, 'commit')} no other branch holds
          </p>
          <ul aria-label="Commits lost" className="loss-list">
            {loss.commits.map((c) => (
              <li key={c.sha}>
                <code>{c.sha.slice(0, 8)}</code> {c.subject}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

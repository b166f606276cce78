import { useEffect, useRef, useState } from 'react';
import { useHostQuery } from '../../lib/use-host-query';
import { useUi } from '../../state/ui-store';
import { useSessionView } from '../../state/session-views-context';
import { pluralize, formatAgo } from '../../lib/format';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import type { ReviewFile } from '../../../../shared/protocol/commands/worktrees';
import { DiffLayoutToggle, DiffView } from '../cards/DiffView';
import { OpenBranch } from './OpenBranch';
import { ReviewActions } from './ReviewActions';
import { useClient } from '../../client-context';
import { CAPABILITIES } from '../conversation/Composer';
import { reviewCommentMessage, type ReviewComment } from '../../../../shared/diff/review-comment';

const STATUS_WORD: Record<ReviewFile['status'], string> = {
  A: 'added',
  D: 'deleted',
  M: 'modified',
  T: 'type changed',
};

/**
 * The Review of a session in its own worktree (issue 28 part 3): everything it changed since the
 * commit it started from (committed or not), file by file in the app's diff view, its commits, and
 * the ways its work lands (Apply, Commit, Discard; the worktree itself stays for the user's tools).
 * Loaded again when the session's run changes state, so a finished step shows without a click.
 */
export function ReviewView({
  sessionId,
  worktree,
  remote,
}: {
  sessionId: string;
  worktree: SessionWorktree;
  /** The project's ssh:// URL when the worktree is on that host (its git runs there). */
  remote?: string;
}) {
  const runState = useSessionView(sessionId, (v) => v.runState);
  const review = useHostQuery('worktrees.review', { id: sessionId });
  const [path, setPath] = useState<string | null>(null);
  const diff = useHostQuery('worktrees.diff', path ? { id: sessionId, path } : { id: sessionId });
  const layout = useUi((s) => s.diffLayout);
  const client = useClient();
  const [sent, setSent] = useState<string | null>(null);
  // A comment goes to the session as a message quoting the lines; the run it starts shows in the
  // conversation, and the Review is read again when that run ends.
  const sendComment = async (c: ReviewComment) => {
    await client.invoke('sessions.send', {
      id: sessionId,
      text: reviewCommentMessage(c),
      capabilities: CAPABILITIES,
    });
    setSent(`Comment on ${c.path} sent to the session.`);
  };
  const { reload: reloadReview } = review;
  const { reload: reloadDiff } = diff;
  // Read again when the run changes state (a step finished); the first render has just read.
  const seen = useRef(runState);
  useEffect(() => {
    if (seen.current === runState) return;
    seen.current = runState;
    reloadReview();
    reloadDiff();
  }, [runState, reloadReview, reloadDiff]);
  const reload = () => {
    reloadReview();
    reloadDiff();
  };

  if (worktree.removed_at)
    return (
      <div className="review" role="region" aria-label="Review">
        <p className="muted">
          The worktree and branch {worktree.branch} were discarded {formatAgo(worktree.removed_at)}.
          The conversation is kept.
        </p>
      </div>
    );
  const r = review.data;
  const files = r?.files ?? [];
  return (
    <div className="review" role="region" aria-label="Review">
      <div className="review-head">
        <div className="review-where">
          <span className="muted small" title={worktree.base}>
            {worktree.branch} from {worktree.base.slice(0, 8)}
          </span>
          {r && (
            <span className="small" role="status">
              {pluralize(files.length, 'file')} changed · {pluralize(r.commits.length, 'commit')} ·{' '}
              {r.uncommitted.length} not committed
            </span>
          )}
        </div>
        <div className="review-tools">
          <DiffLayoutToggle />
          <button type="button" onClick={reload} title="Read the worktree again">
            Refresh
          </button>
        </div>
      </div>
      {review.error && (
        <p className="error-text" role="alert">
          {review.error}
        </p>
      )}
      {sent && (
        <p className="small review-sent" role="status">
          {sent}
        </p>
      )}
      <ReviewActions sessionId={sessionId} worktree={worktree} review={r} onChanged={reload} />
      <div className="review-body">
        <nav className="review-files" aria-label="Changed files">
          <button type="button" aria-pressed={path === null} onClick={() => setPath(null)}>
            All files
          </button>
          {files.map((f) => (
            <button
              key={f.path}
              type="button"
              aria-pressed={path === f.path}
              title={`${f.path} (${STATUS_WORD[f.status]})`}
              onClick={() => setPath(f.path)}
            >
              <span className={`file-status ${f.status}`} aria-label={STATUS_WORD[f.status]}>
                {f.status}
              </span>
              <span className="file-path" dir="rtl">
                <span dir="ltr">{f.path}</span>
              </span>
              {f.additions === null ? (
                <span className="muted small">binary</span>
              ) : (
                <span className="small">
                  <span className="add">+{f.additions}</span>{' '}
                  <span className="del">−{f.deletions}</span>
                </span>
              )}
            </button>
          ))}
        </nav>
        <div className="review-diff" tabIndex={0} role="region" aria-label="Changes">
          {diff.error ? (
            <p className="error-text" role="alert">
              {diff.error}
            </p>
          ) : diff.data ? (
            <DiffView text={diff.data.patch} layout={layout} names onComment={sendComment} />
          ) : (
            <p className="muted small">Reading the worktree…</p>
          )}
          {r && r.commits.length > 0 && (
            <section className="review-commits" aria-label="Commits on the branch">
              <h3>Commits on {worktree.branch}</h3>
              <ul>
                {r.commits.map((c) => (
                  <li key={c.sha}>
                    <code>{c.sha.slice(0, 8)}</code> {c.subject}{' '}
                    <span className="muted small">
                      {c.author}, {formatAgo(c.time * 1000)}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <OpenBranch sessionId={sessionId} path={worktree.path} remote={remote} />
        </div>
      </div>
    </div>
  );
}

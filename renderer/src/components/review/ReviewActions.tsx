import { useState, type FormEvent } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { RpcFailure } from '../../transport/transport';
import { pluralize } from '../../lib/format';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import type { WorktreeReview } from '../../../../shared/protocol/commands/worktrees';
import { DiscardDialog } from './DiscardDialog';

type Outcome =
  | { kind: 'applied'; files: string[] }
  | { kind: 'committed'; sha: string }
  | { kind: 'conflict'; files: { path: string; reason: string }[] }
  | { kind: 'error'; text: string };

/**
 * Apply (the session's changes onto the checkout as uncommitted edits, all or nothing), Commit
 * (what is not committed yet, on the session's branch, with the user's message, which the
 * session's model can propose: it lands in the field to be edited, never committed as is) and Discard
 * (after a confirm naming what is lost). A refused Apply lists every conflicting file with why:
 * nothing was written, and the list says what to sort out first.
 */
export function ReviewActions({
  sessionId,
  worktree,
  review,
  onChanged,
}: {
  sessionId: string;
  worktree: SessionWorktree;
  review: WorktreeReview | null;
  onChanged: () => void;
}) {
  const client = useClient();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const [proposing, setProposing] = useState(false);
  const [proposal, setProposal] = useState<{ reason: string | null } | null>(null);
  const uncommitted = review?.uncommitted.length ?? 0;
  const changed = review?.files.length ?? 0;

  const run = async (action: () => Promise<Outcome>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await action());
      onChanged();
    } catch (err) {
      setOutcome(conflictOf(err) ?? { kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const apply = () =>
    run(async () => {
      const r = await client.invoke('worktrees.apply', { id: sessionId });
      return { kind: 'applied', files: r.files };
    });
  const commit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await client.invoke('worktrees.commit', { id: sessionId, message });
      setMessage('');
      setProposal(null);
      return { kind: 'committed', sha: r.sha };
    });
  };

  const propose = async () => {
    setProposing(true);
    setOutcome(null);
    setProposal(null);
    try {
      const r = await client.invoke('worktrees.proposeMessage', { id: sessionId });
      setMessage(r.message);
      setProposal({ reason: r.reason });
    } catch (err) {
      setOutcome({ kind: 'error', text: errorText(err) });
    } finally {
      setProposing(false);
    }
  };

  return (
    <div className="review-actions">
      <button
        type="button"
        className="primary"
        disabled={busy || changed === 0}
        onClick={() => void apply()}
        title={`Put the session's changes into ${worktree.checkout} as uncommitted edits`}
      >
        Apply to checkout
      </button>
      <form className="review-commit" onSubmit={commit}>
        <textarea
          aria-label="Commit message"
          title="Enter commits; Shift+Enter starts a new line"
          placeholder={
            proposing
              ? 'Asking the model for a message…'
              : uncommitted
                ? `Message for ${pluralize(uncommitted, 'file')}`
                : 'Nothing to commit'
          }
          rows={Math.min(4, Math.max(1, message.split('\n').length))}
          value={message}
          maxLength={10_000}
          disabled={uncommitted === 0}
          onChange={(e) => {
            setMessage(e.target.value);
            setProposal(null);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }}
        />
        <button
          type="button"
          disabled={busy || proposing || uncommitted === 0}
          onClick={() => void propose()}
          title="Ask the session's model for a message from the changes not committed"
        >
          Propose message
        </button>
        <button type="submit" disabled={busy || uncommitted === 0 || !message.trim()}>
          Commit
        </button>
      </form>
      {proposal && (
        <p
          className={`review-proposal small${proposal.reason ? ' warn-text' : ' muted'}`}
          role="status"
        >
          {proposal.reason
            ? `The model could not propose a message (${proposal.reason}); this one names the files. Edit it before committing.`
            : 'Proposed by the model: edit it before committing if you like.'}
        </p>
      )}
      <button type="button" className="danger" disabled={busy} onClick={() => setDiscarding(true)}>
        Discard…
      </button>
      {outcome && <OutcomeLine outcome={outcome} checkout={worktree.checkout} />}
      {discarding && (
        <DiscardDialog
          sessionId={sessionId}
          worktree={worktree}
          onClose={() => setDiscarding(false)}
          onDiscarded={onChanged}
        />
      )}
    </div>
  );
}

/** An `apply_conflict` failure's files, which the host lists one per issue. */
function conflictOf(err: unknown): Outcome | null {
  if (!(err instanceof RpcFailure) || err.error.code !== 'apply_conflict') return null;
  const files = (err.error.issues ?? []).map((i) => ({ path: i.path, reason: i.message }));
  return { kind: 'conflict', files };
}

function OutcomeLine({ outcome, checkout }: { outcome: Outcome; checkout: string }) {
  switch (outcome.kind) {
    case 'applied':
      return (
        <p className="review-outcome ok" role="status">
          Applied {pluralize(outcome.files.length, 'file')} to {checkout} as uncommitted edits.
        </p>
      );
    case 'committed':
      return (
        <p className="review-outcome ok" role="status">
          Committed {outcome.sha.slice(0, 8)} on the session’s branch.
        </p>
      );
    case 'conflict':
      return (
        <div className="review-outcome conflict" role="alert">
          <p>
            Nothing was applied: {pluralize(outcome.files.length, 'file')} changed in {checkout}{' '}
            where the session changed {outcome.files.length === 1 ? 'it' : 'them'}. Commit or set
            aside your own changes to {outcome.files.length === 1 ? 'it' : 'them'}, then apply
            again.
          </p>
          <ul aria-label="Conflicting files">
            {outcome.files.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <span className="muted">{f.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      );
    case 'error':
      return (
        <p className="review-outcome error-text" role="alert">
          {outcome.text}
        </p>
      );
  }
}

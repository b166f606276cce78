import { memo, useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import type { ForkItem, RewindItem } from '../../state/timeline-items';
import { useSessionId } from '../timeline/session-context';
import { useSessions, useSessionsStore } from '../../state/sessions-store';

const WHAT = {
  both: 'files and conversation',
  files: 'files',
  conversation: 'conversation',
} as const;

/** A rewind in the conversation: what it did, and Undo while it is in force. */
export const RewindRow = memo(function RewindRow({ item }: { item: RewindItem }) {
  const client = useClient();
  const sessionId = useSessionId();
  const [error, setError] = useState<string | null>(null);
  const counts =
    item.mode === 'conversation'
      ? ''
      : `: ${item.restored} restored, ${item.created} created, ${item.deleted} deleted` +
        (item.kept.length ? `, ${item.kept.length} kept (${item.kept.join(', ')})` : '');
  const undo = async () => {
    try {
      await client.invoke('sessions.undoRewind', { id: sessionId, rewind_seq: item.seq });
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div className="notice rewind-row" role="note">
      <span>
        {item.undone ? 'Undone: rewind' : 'Rewound'} {WHAT[item.mode]} to an earlier message
        {counts}.
      </span>
      {!item.undone && (
        <button type="button" className="link-button small" onClick={() => void undo()}>
          Undo rewind
        </button>
      )}
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
});

/** A fork's first note: where it came from, by that session's title, a link back to it. */
export const ForkRow = memo(function ForkRow({ item }: { item: ForkItem }) {
  const sessions = useSessionsStore();
  const title = useSessions((s) => s.sessions.find((x) => x.id === item.fromSession)?.title);
  return (
    <div className="notice fork-row" role="note">
      Forked from{' '}
      {title === undefined ? (
        'a session that is no longer listed'
      ) : (
        <button
          type="button"
          className="link-button"
          onClick={() => sessions.getState().select(item.fromSession)}
        >
          {title}
        </button>
      )}
      : the history above is a copy.
    </div>
  );
});

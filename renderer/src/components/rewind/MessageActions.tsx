import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { useSessions } from '../../state/sessions-store';
import { useSessionId } from '../timeline/session-context';
import { RewindDialog } from './RewindDialog';

/**
 * A message's own actions: "Rewind to here" (user messages) and "Fork from here" (any message,
 * the new session holds the history up to and including it and opens at once).
 */
export function MessageActions({ seq, rewind }: { seq: number; rewind: boolean }) {
  const client = useClient();
  const sessionId = useSessionId();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fork = async () => {
    try {
      const r = await client.invoke('sessions.fork', { id: sessionId, at_seq: seq + 1 });
      const store = useSessions.getState();
      store.upsertSession(r.session);
      store.select(r.session.id);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <span className="msg-actions">
      {rewind && (
        <button type="button" className="link-button small" onClick={() => setOpen(true)}>
          Rewind to here
        </button>
      )}
      <button type="button" className="link-button small" onClick={() => void fork()}>
        Fork from here
      </button>
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
      {open && <RewindDialog sessionId={sessionId} toSeq={seq} onClose={() => setOpen(false)} />}
    </span>
  );
}

import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { useSessionsStore } from '../../state/sessions-store';
import { useSessionId } from '../timeline/session-context';
import { RewindDialog } from './RewindDialog';
import { CopyButton } from '../common/CopyButton';
import { useUi, type SentMessage } from '../../state/ui-store';

/**
 * A message's own actions: Copy; for the user's messages "Edit and resend" (into the message box);
 * "Rewind to here" (user messages) and "Fork from here" (any message, the new session holds the
 * history up to and including it and opens at once). Making an answer again is Regenerate, under
 * the answer (AnswerBar): it replaces the answer instead of asking the question a second time.
 */
export function MessageActions({
  seq,
  rewind,
  text,
  sent,
}: {
  seq: number;
  rewind: boolean;
  /** The message's text, for Copy. */
  text?: string;
  /** A user message as sent: Edit puts it whole in the message box. */
  sent?: SentMessage;
}) {
  const client = useClient();
  const editInComposer = useUi((s) => s.editInComposer);
  const sessionId = useSessionId();
  const sessions = useSessionsStore();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fork = async () => {
    try {
      const r = await client.invoke('sessions.fork', { id: sessionId, at_seq: seq + 1 });
      const store = sessions.getState();
      store.upsertSession(r.session);
      store.select(r.session.id);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <span className="msg-actions">
      {text !== undefined && <CopyButton text={text} label="Copy message" />}
      {rewind && sent && (
        <button
          type="button"
          className="link-button small"
          onClick={() =>
            editInComposer({
              sessionId,
              text: sent.text,
              images: sent.images,
              pastes: sent.pastes,
            })
          }
        >
          Edit and resend
        </button>
      )}
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

import { useState, type FormEvent } from 'react';
import { commentPlace, type QuotedLine } from '../../../../shared/diff/review-comment';
import { errorText } from '../../state/agent-actions';

/**
 * The comment on picked lines of a diff, written under them: Enter sends (Shift+Enter is a new
 * line), Escape or Cancel closes it and gives the focus back to the diff. What was typed stays
 * when sending fails, with the reason.
 */
export function LineCommentForm({
  path,
  lines,
  onSend,
  onClose,
}: {
  path: string;
  lines: QuotedLine[];
  onSend: (comment: string) => Promise<void>;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const place = `${path}, ${commentPlace(lines)}`;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      await onSend(text);
      onClose();
    } catch (err) {
      setError(errorText(err));
      setSending(false);
    }
  };

  return (
    <form className="line-comment" aria-label="Comment on lines" onSubmit={(e) => void submit(e)}>
      <label className="small muted" htmlFor="line-comment-text">
        Comment on {place}: sent to the session with the lines quoted
      </label>
      <textarea
        id="line-comment-text"
        aria-label="Comment"
        autoFocus
        rows={2}
        value={text}
        maxLength={20_000}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) void submit();
          else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else return;
          e.preventDefault();
        }}
      />
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      <div className="line-comment-actions">
        <button type="submit" className="primary" disabled={sending || !text.trim()}>
          Send to session
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

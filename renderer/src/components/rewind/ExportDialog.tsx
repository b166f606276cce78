import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { Dialog } from '../common/Dialog';

/** Export a session: a readable markdown transcript, or its event log (importable again). */
export function ExportDialog({
  sessionId,
  title,
  onClose,
}: {
  sessionId: string;
  title: string;
  onClose: () => void;
}) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const save = async (format: 'markdown' | 'jsonl') => {
    try {
      const r = await client.invoke('sessions.export', { id: sessionId, format });
      const type = format === 'markdown' ? 'text/markdown' : 'application/x-ndjson';
      const url = URL.createObjectURL(new Blob([r.content], { type }));
      const a = document.createElement('a');
      a.href = url;
      a.download = r.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Dialog label="Export session" onClose={onClose} className="confirm">
      <h2>Export “{title}”</h2>
      <p>
        Markdown is a readable transcript to share. The event log (JSON lines) can be imported again
        with <code>mewbo sessions import</code>.
      </p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" onClick={() => void save('jsonl')}>
          Event log (.jsonl)
        </button>
        <button type="button" className="primary" autoFocus onClick={() => void save('markdown')}>
          Markdown
        </button>
      </div>
    </Dialog>
  );
}

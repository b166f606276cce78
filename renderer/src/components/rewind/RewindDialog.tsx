import { useEffect, useState } from 'react';
import type { RewindMode, RewindPreview } from '../../../../shared/protocol/commands/checkpoints';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { Dialog } from '../common/Dialog';

const ACTION_LABEL = { restore: 'restored', create: 'created', delete: 'deleted' } as const;

/**
 * "Rewind to here": what a rewind to this message would do to the files (restored, created,
 * deleted; the ones the user changed since are kept unless ticked) and the three ways to go.
 */
export function RewindDialog({
  sessionId,
  toSeq,
  onClose,
}: {
  sessionId: string;
  toSeq: number;
  onClose: () => void;
}) {
  const client = useClient();
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [include, setInclude] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    client
      .invoke('sessions.rewindPreview', { id: sessionId, to_seq: toSeq })
      .then(setPreview, (err: unknown) => setError(errorText(err)));
  }, [client, sessionId, toSeq]);

  const go = async (mode: RewindMode) => {
    setBusy(true);
    try {
      await client.invoke('sessions.rewind', {
        id: sessionId,
        to_seq: toSeq,
        mode,
        include: [...include],
      });
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  const toggle = (path: string) => {
    const next = new Set(include);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setInclude(next);
  };
  const files = preview?.files ?? [];

  return (
    <Dialog label="Rewind to here" onClose={onClose} className="rewind-dialog">
      <h2>Rewind to here</h2>
      {!preview && !error && <p className="muted">Looking at what changed…</p>}
      {preview && (
        <>
          {files.length ? (
            <>
              <p>These files in {preview.root} go back to how they were before this message:</p>
              <ul className="rewind-files" aria-label="Files">
                {files.map((f) => (
                  <li key={f.path} className={`rewind-file ${f.action}`}>
                    {f.user_changed ? (
                      <label>
                        <input
                          type="checkbox"
                          checked={include.has(f.path)}
                          onChange={() => toggle(f.path)}
                        />
                        <code>{f.path}</code> {ACTION_LABEL[f.action]}{' '}
                        <span className="muted">(you changed it since: kept unless ticked)</span>
                      </label>
                    ) : (
                      <>
                        <code>{f.path}</code> {ACTION_LABEL[f.action]}
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>
              {preview.has_checkpoint
                ? 'The files are as they were before this message: nothing to restore.'
                : 'The agent changed no files after this message: nothing to restore.'}
            </p>
          )}
          {preview.not_stored.length > 0 && (
            <p className="muted">
              Left as they are (over the checkpoint size limit, never stored):{' '}
              {preview.not_stored.join(', ')}
            </p>
          )}
          <p className="muted">
            The conversation goes back to before this message: what came after it is folded away.
            Every rewind can be undone.
          </p>
        </>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" disabled={!preview || busy} onClick={() => void go('conversation')}>
          Conversation only
        </button>
        <button type="button" disabled={!preview || busy} onClick={() => void go('files')}>
          Files only
        </button>
        <button
          type="button"
          className="primary"
          disabled={!preview || busy}
          autoFocus
          onClick={() => void go('both')}
        >
          Files and conversation
        </button>
      </div>
    </Dialog>
  );
}

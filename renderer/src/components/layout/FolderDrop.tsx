import { useEffect, useRef, useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { openFolderAsProject } from '../../state/switch-project';
import { useAppStores } from '../../state/session-views-context';
import { droppedFolder, mayHoldFolder } from '../../lib/folder-drop';
import { shortcutLabel } from '../../lib/shortcuts';

/** A drag shows no more events after this long: it left the window or was cancelled. */
const DRAG_IDLE_MS = 200;

type Notice = { tone: 'info' | 'error'; text: string } | null;

/**
 * Drag a folder onto the window to open it as a project. The window takes every file drop the
 * message box does not (an image there becomes a chip), so a stray drop never navigates the page
 * away from the app.
 */
export function FolderDrop() {
  const client = useClient();
  const stores = useAppStores();
  const [dragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    const onOver = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = mayHoldFolder(e.dataTransfer) ? 'copy' : 'none';
      setDragging(mayHoldFolder(e.dataTransfer));
      clearTimeout(idle.current);
      idle.current = setTimeout(() => setDragging(false), DRAG_IDLE_MS);
    };
    const onDrop = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      setDragging(false);
      // Read now: a drop's items are gone once the event returns.
      const dropped = droppedFolder(e.dataTransfer, window.mewbo?.pathForFile);
      if (dropped.kind === 'not-folder') {
        setNotice({
          tone: 'info',
          text: 'Drop a folder here to open it as a project (images go in the message box).',
        });
      } else if (dropped.kind === 'no-path') {
        setNotice({
          tone: 'info',
          text: `This browser does not tell the app where “${dropped.name}” is on disk, so a dropped folder cannot be opened here. Press ${shortcutLabel('P')} and type the folder's full path (like /home/you/code/${dropped.name}), or drop it on the desktop app.`,
        });
      } else {
        setNotice(null);
        openFolderAsProject(client, stores, dropped.path).catch((err: unknown) =>
          setNotice({ tone: 'error', text: `Could not open ${dropped.name}: ${errorText(err)}` }),
        );
      }
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
      clearTimeout(idle.current);
    };
  }, [client, stores]);

  return (
    <>
      {dragging && (
        <div className="folder-drop-overlay" aria-hidden="true">
          <div>Drop a folder to open it as a project</div>
        </div>
      )}
      {notice && (
        <div className={`folder-drop-notice ${notice.tone}`} role="alert">
          <span>{notice.text}</span>
          <button
            type="button"
            onClick={() => {
              setNotice(null);
              stores.ui.getState().openDialog('picker');
            }}
          >
            Open project…
          </button>
          <button type="button" aria-label="Dismiss" onClick={() => setNotice(null)}>
            ✕
          </button>
        </div>
      )}
    </>
  );
}

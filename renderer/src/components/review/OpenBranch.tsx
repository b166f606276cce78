import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { CopyButton } from '../common/CopyButton';
import { remotePlaceOfUrl, remotePlaceText } from '../../lib/remote-place';

/**
 * Open branch: the worktree stays for the user's own tools until Discard. "Open folder" shows it
 * in the system's file manager (the host's one opener); its path can be copied for a terminal or
 * an editor. Where nothing can open a folder, the host says so and the path is still here. A
 * worktree on an SSH host is no folder of this computer: its place there is shown to copy
 * (`host:/path`, as scp writes it), with no button that could not open it.
 */
export function OpenBranch({
  sessionId,
  path,
  remote,
}: {
  sessionId: string;
  path: string;
  remote?: string;
}) {
  const client = useClient();
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const open = async () => {
    setSaid(null);
    try {
      const r = await client.invoke('worktrees.openFolder', { id: sessionId });
      setSaid({ ok: true, text: `Opened ${r.path} with ${r.opened_with}.` });
    } catch (err) {
      setSaid({ ok: false, text: errorText(err) });
    }
  };
  if (remote) {
    const place = remotePlaceText({ ...remotePlaceOfUrl(remote), path });
    return (
      <div className="review-open-branch small">
        <p className="muted">
          The worktree stays on the host at <code dir="ltr">{place}</code> for your own tools until
          you discard it.
        </p>
        <div className="review-open-actions">
          <CopyButton text={place} label="Copy the worktree's place on the host" />
        </div>
      </div>
    );
  }
  return (
    <div className="review-open-branch small">
      <p className="muted">
        The worktree stays at <code>{path}</code> for your own tools until you discard it.
      </p>
      <div className="review-open-actions">
        <button type="button" className="small" onClick={() => void open()}>
          Open folder
        </button>
        <CopyButton text={path} label="Copy the worktree's path" />
      </div>
      {said && (
        <p className={said.ok ? 'muted' : 'error-text'} role={said.ok ? 'status' : 'alert'}>
          {said.text}
        </p>
      )}
    </div>
  );
}

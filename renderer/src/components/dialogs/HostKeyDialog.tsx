import type { HostKeyRefusal } from '../../../../shared/protocol/commands/projects';
import { hostKeyFixCommand } from '../../../../shared/remote/host-key-fix';
import { Dialog } from '../common/Dialog';

/**
 * The accept step of a remote project whose host key stopped the connection (strict checking):
 * the fingerprint the host offered, for the user to compare with the one its owner gives, and
 * the one command that accepts exactly that key (or removes a changed one), run in a terminal.
 */
export function HostKeyDialog({
  name,
  refusal,
  onClose,
}: {
  name: string;
  refusal: HostKeyRefusal;
  onClose: () => void;
}) {
  const unknown = refusal.problem === 'unknown';
  return (
    <Dialog label="Host key" onClose={onClose} className="confirm host-key">
      <h2>{unknown ? 'Unknown host key' : 'The host key changed'}</h2>
      <p>
        {unknown
          ? `${name} is on ${refusal.host}:${refusal.port}, which this computer has not connected to before. `
          : `${refusal.host}:${refusal.port} now offers another key than the one in known_hosts: this can be an attack, or the host was reinstalled. `}
        Compare the fingerprint with the one the host’s owner gives you:
      </p>
      <code className="fingerprint">{refusal.fingerprint ?? 'the host did not answer'}</code>
      <p>
        {unknown
          ? 'If it is the same, accept it once in a terminal:'
          : 'If you know why, remove the old key:'}
      </p>
      <code className="fingerprint">{hostKeyFixCommand(refusal)}</code>
      <div className="actions">
        <button type="button" className="primary" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

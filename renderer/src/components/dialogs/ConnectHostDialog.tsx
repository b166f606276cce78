import { useEffect, useState, type FormEvent } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import type { ProjectEntry } from '../../state/projects-store';
import { Dialog } from '../common/Dialog';

/** The ssh:// URL of what the form holds: `[user@]host[:port]` and an absolute path, encoded. */
export function remoteUrl(host: string, path: string): string {
  const encoded = path
    .trim()
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `ssh://${host.trim()}${encoded}`;
}

/**
 * "Connect to host...": a folder on an SSH host added as a project. The host field offers the
 * aliases of ~/.ssh/config (ssh reads the rest of that config: user, port, keys, ProxyJump); the
 * host checks the URL and says what is wrong with it. Nothing is contacted when adding.
 */
export function ConnectHostDialog({
  onAdded,
  onBack,
}: {
  onAdded: (project: ProjectEntry) => void;
  onBack: () => void;
}) {
  const client = useClient();
  const [aliases, setAliases] = useState<string[]>([]);
  const [host, setHost] = useState('');
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    client.invoke('projects.sshHosts', {}).then(
      (r) => live && setAliases(r.hosts),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!host.trim()) return setError('Give the host: an alias of ~/.ssh/config, or user@host.');
    if (!path.trim().startsWith('/'))
      return setError('Give the folder’s absolute path on the host, like /home/you/app.');
    setBusy(true);
    try {
      const r = await client.invoke('projects.addRemote', { url: remoteUrl(host, path) });
      onAdded(r.project);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog label="Connect to host" onClose={onBack} className="connect-host">
      <form className="form" onSubmit={(e) => void add(e)}>
        <h2>Connect to host</h2>
        <label>
          Host
          <input
            value={host}
            list="ssh-config-hosts"
            placeholder="an alias of ~/.ssh/config, or user@host:port"
            spellCheck={false}
            autoComplete="off"
            autoFocus
            onChange={(e) => setHost(e.target.value)}
          />
        </label>
        <datalist id="ssh-config-hosts">
          {aliases.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <label>
          Folder on the host
          <input
            value={path}
            placeholder="/home/you/app"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setPath(e.target.value)}
          />
        </label>
        <p className="muted small">
          {host.trim() && path.trim() ? (
            <>
              Adds <code>{remoteUrl(host, path)}</code>.{' '}
            </>
          ) : null}
          Files, shells and git run on the host; the agent, your keys and the log stay here.
        </p>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={onBack}>
            Back
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add project'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import type { TrustedProject } from '../../../../../shared/protocol/commands/trust';

const SOURCE_LABEL: Record<TrustedProject['source'], string> = {
  config: 'configs/app.json (trusted: true)',
  list: 'trusted from the app',
  run: 'this run only (--trust)',
};

/** Trusted projects (workspace trust), each revocable at once. */
export function TrustSettings() {
  const client = useClient();
  const q = useHostQuery('trust.list', {}, 'trust');

  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const revoke = (path: string) => q.act(() => client.invoke('trust.revoke', { path }));
  return (
    <div className="form">
      <p className="muted small">
        A project is untrusted until you trust it: its <code>.mcp.json</code> servers do not start
        and nothing inside it (language servers in <code>node_modules/.bin</code>, hooks) is run.
        Sessions and sandboxed shells work either way.
      </p>
      {q.actionError && (
        <p className="error-text" role="alert">
          {q.actionError}
        </p>
      )}
      {q.data.projects.length === 0 ? (
        <p className="muted">No project is trusted.</p>
      ) : (
        <table className="grid-table" aria-label="Trusted projects">
          <thead>
            <tr>
              <th>Project</th>
              <th>Trusted by</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {q.data.projects.map((p) => (
              <tr key={`${p.source}:${p.path}`}>
                <td>
                  <code>{p.path}</code>
                  {p.project && <div className="muted small">{p.project}</div>}
                </td>
                <td className="small">{SOURCE_LABEL[p.source]}</td>
                <td>
                  {p.source !== 'run' && (
                    <button
                      type="button"
                      aria-label={`Revoke trust in ${p.path}`}
                      onClick={() => void revoke(p.path)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

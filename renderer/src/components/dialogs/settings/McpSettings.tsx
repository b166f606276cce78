import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';

/** MCP servers (app config and projects' .mcp.json), each with its state, tools and last error. */
export function McpSettings() {
  const client = useClient();
  const q = useHostQuery('mcp.servers', {}, 'settings');

  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const restart = (id: string) => q.act(() => client.invoke('mcp.restart', { id }));
  return (
    <div className="form">
      <p className="muted small">
        Servers come from <code>mcpServers</code> in configs/app.json and from each project’s{' '}
        <code>.mcp.json</code>. Their tools are deferred and found through tool search.
      </p>
      {q.actionError && (
        <p className="error-text" role="alert">
          {q.actionError}
        </p>
      )}
      {q.data.servers.length === 0 ? (
        <p className="muted">No MCP servers are configured.</p>
      ) : (
        <table className="grid-table" aria-label="MCP servers">
          <thead>
            <tr>
              <th>Server</th>
              <th>State</th>
              <th>Tools</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {q.data.servers.map((s) => (
              <tr key={s.id}>
                <td>
                  <strong>{s.name}</strong>
                  <div className="muted small">
                    {s.scope === 'app' ? 'app' : s.root} · {s.transport}
                  </div>
                </td>
                <td>
                  <span className={`state-pill ${s.state}`}>{s.state}</span>
                  {s.error && <div className="error-text small">{s.error}</div>}
                </td>
                <td className="small">
                  {s.tools.length ? s.tools.join(', ') : '—'}
                  {s.prompts.length > 0 && (
                    <div aria-label={`${s.name} prompts`}>
                      Prompts: {s.prompts.map((p) => p.name).join(', ')}
                    </div>
                  )}
                  {s.resources.length > 0 && (
                    <div aria-label={`${s.name} resources`}>
                      Resources: {s.resources.map((r) => r.name).join(', ')}
                    </div>
                  )}
                  {(s.log_tail.length > 0 || s.stderr_tail.length > 0) && (
                    <details>
                      <summary>Log</summary>
                      <pre className="small" aria-label={`${s.name} log`}>
                        {[...s.log_tail, ...s.stderr_tail].join('\n')}
                      </pre>
                    </details>
                  )}
                </td>
                <td>
                  <button type="button" onClick={() => void restart(s.id)}>
                    Restart
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

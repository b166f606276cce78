import { useState } from 'react';
import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import type { McpServerStatus } from '../../../../../shared/protocol/commands/mcp';

/** A sign-in the user started here: the page it opened (or could not), until the server runs. */
interface PendingSignIn {
  url: string | null;
  openedWith: string | null;
}

/**
 * MCP servers (app config and projects' .mcp.json), each with its state, tools and last error; an
 * HTTP server behind OAuth has Sign in (Sign out once signed in). Follows the `mcp` topic, so a
 * server that comes up signed in shows at once.
 */
export function McpSettings() {
  const client = useClient();
  const q = useHostQuery('mcp.servers', {}, 'mcp');
  const [pending, setPending] = useState<Record<string, PendingSignIn>>({});

  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const restart = (id: string) => q.act(() => client.invoke('mcp.restart', { id }));
  const signIn = (id: string) =>
    q.act(async () => {
      const started = await client.invoke('mcp.signIn', { id });
      setPending((p) => ({
        ...p,
        [id]: { url: started.authorization_url, openedWith: started.opened_with },
      }));
    });
  const signOut = (id: string) => q.act(() => client.invoke('mcp.signOut', { id }));
  /** Waiting shows only while the server still waits; a failed sign-in says why in its error. */
  const waiting = (s: McpServerStatus) =>
    s.state === 'needs_sign_in' && !s.error?.startsWith('sign-in failed')
      ? pending[s.id]
      : undefined;
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
                  <span className={`state-pill ${s.state}`}>
                    {waiting(s) ? 'waiting for sign-in' : s.state}
                  </span>
                  {waiting(s) && <SignInWait pending={waiting(s)!} />}
                  {s.error && !waiting(s) && <div className="error-text small">{s.error}</div>}
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
                  {s.sign_in && !s.sign_in.signed_in && (
                    <button
                      type="button"
                      aria-label={`Sign in to ${s.name}`}
                      disabled={!!waiting(s)}
                      onClick={() => void signIn(s.id)}
                    >
                      Sign in
                    </button>
                  )}
                  {s.sign_in?.signed_in && (
                    <button
                      type="button"
                      aria-label={`Sign out of ${s.name}`}
                      onClick={() => void signOut(s.id)}
                    >
                      Sign out
                    </button>
                  )}
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

/** Where the sign-in page is: opened in the browser, or a link when none could be opened. */
function SignInWait({ pending }: { pending: PendingSignIn }) {
  return (
    <div className="muted small" role="status">
      {pending.openedWith
        ? `Finish signing in in the browser (${pending.openedWith}).`
        : 'No browser could be opened: '}
      {pending.url && !pending.openedWith && (
        <a href={pending.url} target="_blank" rel="noreferrer">
          open the sign-in page
        </a>
      )}
    </div>
  );
}

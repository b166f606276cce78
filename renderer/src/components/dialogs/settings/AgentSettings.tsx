import { useState } from 'react';
import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import { errorText } from '../../../state/agent-actions';
import type { PermissionModeWire } from '../../../../../shared/protocol/common';

export interface AgentSettingsView {
  permission_mode: PermissionModeWire;
  edit_tool: '' | 'search_replace_block' | 'structured_patch';
  /** The backend in effect for the active model (what "follow the model" resolves to). */
  effective_edit_tool: string | null;
  shell_sandbox: boolean;
  sandbox: { available: boolean; abi: number | null; reason: string | null };
}

/** Permission mode, edit backend and the shell sandbox with its real state on this kernel. */
export function AgentSettings() {
  const client = useClient();
  const q = useHostQuery<AgentSettingsView>('settings.get', {}, 'settings');
  const [error, setError] = useState<string | null>(null);

  if (q.unavailable)
    return <p className="muted">Agent settings are not available in this build.</p>;
  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const s = q.data;
  const update = async (
    patch: Partial<Pick<AgentSettingsView, 'permission_mode' | 'edit_tool' | 'shell_sandbox'>>,
  ) => {
    setError(null);
    try {
      await client.transport.invoke('settings.update', patch);
      q.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div className="form">
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <label>
        Default permission mode
        <select
          value={s.permission_mode}
          onChange={(e) => void update({ permission_mode: e.target.value as PermissionModeWire })}
        >
          <option value="ask">Ask before edits and shells</option>
          <option value="accept-edits">Accept edits, ask for shells</option>
          <option value="auto">Auto: no approvals</option>
          <option value="plan">Plan first</option>
        </select>
      </label>
      <label>
        Edit backend
        <select
          value={s.edit_tool}
          onChange={(e) =>
            void update({ edit_tool: e.target.value as AgentSettingsView['edit_tool'] })
          }
        >
          <option value="">
            Follow the model{s.effective_edit_tool ? ` (now: ${s.effective_edit_tool})` : ''}
          </option>
          <option value="search_replace_block">SEARCH/REPLACE blocks</option>
          <option value="structured_patch">Structured patch (exact string)</option>
        </select>
      </label>
      <fieldset>
        <legend>Shell sandbox</legend>
        <label className="radio">
          <input
            type="checkbox"
            checked={s.shell_sandbox}
            onChange={(e) => void update({ shell_sandbox: e.target.checked })}
          />
          Keep shell commands out of other projects and the app’s own keys (Landlock)
        </label>
        <p className={`sandbox-state ${s.sandbox.available ? 'ok' : 'warn'}`} role="status">
          {s.sandbox.available
            ? `Landlock is active (ABI ${s.sandbox.abi}).`
            : `Shells run unconfined: ${s.sandbox.reason ?? 'Landlock is not available on this kernel'}.`}
        </p>
      </fieldset>
    </div>
  );
}

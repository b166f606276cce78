import { useState } from 'react';
import { useClient } from '../../client-context';
import type { SessionModel } from '../../state/session-model';
import { useUi } from '../../state/ui-store';
import { errorText } from '../../state/agent-actions';
import { permissionModeWire, type PermissionModeWire } from '../../../../shared/protocol/common';
import type { SessionSummary } from '../../../../shared/protocol/session-summary';
import { Dialog } from '../common/Dialog';

const MODE_LABEL: Record<PermissionModeWire, string> = {
  ask: 'Ask first',
  'accept-edits': 'Accept edits',
  auto: 'Auto',
  plan: 'Plan',
};
const MODE_HELP =
  'Ask first: approve every edit and shell. Accept edits: approve shells only. Auto: no approvals. Plan: the agent drafts a plan for your approval before acting.';

/** Title, project, run state, permission mode and Stop (with a confirm) for the open session. */
export function SessionHeader({
  id,
  summary,
  model,
}: {
  id: string;
  summary: SessionSummary | undefined;
  model: SessionModel;
}) {
  const client = useClient();
  const dialog = useUi((s) => s.dialog);
  const openDialog = useUi((s) => s.openDialog);
  const closeDialog = useUi((s) => s.closeDialog);
  const [error, setError] = useState<string | null>(null);
  const active = model.runState === 'running' || model.runState === 'waiting';

  const setMode = async (mode: PermissionModeWire) => {
    try {
      await client.invoke('sessions.setMode', { id, mode });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const stop = async () => {
    closeDialog();
    try {
      await client.invoke('sessions.stop', { id });
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <header className="session-header">
      <div className="session-title">
        <h1>{summary?.title ?? model.title}</h1>
        <span className="muted small path" title={model.root ?? ''}>
          {model.project ?? 'no project'}
        </span>
      </div>
      <span
        className={`run-state ${model.runState}`}
        role="status"
        aria-label={`Run ${model.runState}`}
      >
        {model.runState}
      </span>
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
      <label className="mode">
        <span className="visually-hidden">Permission mode</span>
        <select
          aria-label="Permission mode"
          title={MODE_HELP}
          value={model.mode ?? 'ask'}
          onChange={(e) => void setMode(e.target.value as PermissionModeWire)}
        >
          {permissionModeWire.options.map((m) => (
            <option key={m} value={m}>
              {MODE_LABEL[m]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="danger"
        disabled={!active}
        onClick={() => openDialog('stop')}
        title="Stop the run"
      >
        Stop
      </button>
      {dialog === 'stop' && (
        <Dialog label="Stop the run?" onClose={closeDialog} className="confirm">
          <h2>Stop the run?</h2>
          <p>The agent stops working on this message. What it already changed stays changed.</p>
          <div className="actions">
            <button type="button" onClick={closeDialog} autoFocus>
              Keep running
            </button>
            <button type="button" className="danger" onClick={() => void stop()}>
              Stop run
            </button>
          </div>
        </Dialog>
      )}
    </header>
  );
}

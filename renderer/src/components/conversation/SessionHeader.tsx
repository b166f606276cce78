import { useEffect, useEffectEvent, useState } from 'react';
import { useClient } from '../../client-context';
import { useSessionView } from '../../state/session-views-context';
import { errorText } from '../../state/agent-actions';
import { permissionModeWire, type PermissionModeWire } from '../../../../shared/protocol/common';
import type { SessionSummary } from '../../../../shared/protocol/session-summary';
import { focusComposer, MODE_SELECT_ID } from '../../lib/focus';
import { ContextMeter } from './ContextMeter';
import { ModelPicker } from './ModelPicker';
import { AgentSwitch } from './AgentSwitch';
import { AgentOptions } from './AgentOptions';
import { AgentUsageMeter } from './AgentUsageMeter';
import { useProjectName, useProjects } from '../../state/projects-store';
import { pluralize } from '../../lib/format';
import { useUi } from '../../state/ui-store';
import { remotePlaceOfUrl, remotePlaceText } from '../../lib/remote-place';

const MODE_LABEL: Record<PermissionModeWire, string> = {
  ask: 'Ask first',
  'accept-edits': 'Accept edits',
  auto: 'Auto',
  plan: 'Plan',
};
const MODE_HELP =
  'Ask first: approve every edit and shell. Accept edits: approve shells only. Auto: no approvals. Plan: the agent drafts a plan for your approval before acting.';

/**
 * Title, project, run state, permission mode and Stop for the open session. Stop needs no confirm:
 * what had streamed is kept, and Esc (from anywhere but a dialog) does the same.
 */
export function SessionHeader({
  id,
  summary,
}: {
  id: string;
  summary: SessionSummary | undefined;
}) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const title = useSessionView(id, (v) => v.title);
  const project = useProjectName(useSessionView(id, (v) => v.project));
  const root = useSessionView(id, (v) => v.root);
  const runState = useSessionView(id, (v) => v.runState);
  const mode = useSessionView(id, (v) => v.mode);
  const usage = useSessionView(id, (v) => v.usage);
  const chosenModel = useSessionView(id, (v) => v.chosenModel);
  const hasItems = useSessionView(id, (v) => v.hasItems);
  const agentModes = useSessionView(id, (v) => v.agentModes);
  const agentOptions = useSessionView(id, (v) => v.agentOptions);
  const agentUsage = useSessionView(id, (v) => v.agentUsage);
  const agent = summary?.agent;
  const active = runState === 'running' || runState === 'waiting';
  const reviewing = useUi((s) => s.reviewing === id);
  const setReviewing = useUi((s) => s.setReviewing);
  const worktree = summary?.worktree;
  // A remote project's git state, as its host's git read it (the project list carries it).
  const remoteProject = useProjects((s) =>
    summary?.remote ? s.projects.find((p) => p.remote?.url === summary.remote) : undefined,
  );

  const setMode = async (mode: PermissionModeWire) => {
    try {
      await client.invoke('sessions.setMode', { id, mode });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const setAgentMode = async (mode: string) => {
    try {
      await client.invoke('agents.setMode', { id, mode });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const stop = async () => {
    try {
      await client.invoke('sessions.stop', { id });
    } catch (err) {
      setError(errorText(err));
    }
    focusComposer();
  };
  const onEscape = useEffectEvent((e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !active) return;
    if (document.querySelector('dialog[open]')) return;
    e.preventDefault();
    void stop();
  });
  useEffect(() => {
    window.addEventListener('keydown', onEscape);
    return () => window.removeEventListener('keydown', onEscape);
  }, []);

  return (
    <header className="session-header">
      <div className="session-title">
        <h1 title={summary?.title ?? title}>{summary?.title ?? title}</h1>
        {summary?.remote ? (
          // A folder on an SSH host: the host and the path, not the folder's name alone (a
          // long path is cut at its start; the URL, port included, is the tooltip).
          <span className="muted small path remote-place" title={summary.remote}>
            <span dir="ltr">{remotePlaceText(remotePlaceOfUrl(summary.remote))}</span>
          </span>
        ) : (
          <span className="muted small path" title={root ?? ''}>
            {project ?? 'no project'}
          </span>
        )}
        {worktree && (
          <span
            className={`chip branch ${worktree.removed_at ? 'muted' : ''}`}
            title={worktree.removed_at ? 'Discarded' : `Worktree: ${worktree.path}`}
          >
            ⎇ {worktree.branch}
          </span>
        )}
        {/* A worktree session's chip is its own branch: the checkout's would read as the session's. */}
        {!worktree && remoteProject?.branch && (
          // Short, so the chip keeps its count in a narrow header; the tooltip says it whole.
          <span
            className="chip branch remote-git"
            title={`Branch ${remoteProject.branch} on ${remoteProject.remote!.host}, ${pluralize(remoteProject.remote!.changed_files ?? 0, 'file')} not committed, as its git said when the link connected or the run last stopped`}
          >
            ⎇ {remoteProject.branch}
            {remoteProject.remote?.changed_files
              ? ` · ${remoteProject.remote.changed_files} changed`
              : ''}
          </span>
        )}
        <span className={`run-state ${runState}`} role="status" aria-label={`Run ${runState}`}>
          {runState}
        </span>
      </div>
      {error && (
        <span className="error-text header-error" role="alert">
          {error}
        </span>
      )}
      <div className="session-controls">
        {worktree && (
          <button
            type="button"
            aria-pressed={reviewing}
            onClick={() => setReviewing(reviewing ? null : id)}
            title="What the session changed in its worktree, and Apply, Commit, Discard"
          >
            Review
          </button>
        )}
        {/* The app's own agent, fixed once the session has messages, has nothing to show here:
            the header keeps its room for the title and Stop. */}
        {(agent || !hasItems) && <AgentSwitch id={id} agent={agent} fixed={hasItems} />}
        {/* An external agent runs on its own model: the app's usage and model do not apply; what
            it reports of its own (its context, its settings) shows instead. */}
        {!agent && <ContextMeter usage={usage} />}
        {!agent && <ModelPicker id={id} chosen={chosenModel} />}
        {agent && agentUsage && <AgentUsageMeter usage={agentUsage} />}
        {agent && <AgentOptions id={id} options={agentOptions} onError={setError} />}
        {agent && agentModes ? (
          // The agent's own modes: the app's permission mode follows where one matches it.
          <label className="mode">
            <span className="visually-hidden">Agent mode</span>
            <select
              id={MODE_SELECT_ID}
              aria-label="Agent mode"
              title={agentModes.modes.find((m) => m.id === agentModes.current)?.description}
              value={agentModes.current}
              onChange={(e) => void setAgentMode(e.target.value)}
            >
              {agentModes.modes.map((m) => (
                <option key={m.id} value={m.id} title={m.description}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className="mode">
            <span className="visually-hidden">Permission mode</span>
            <select
              id={MODE_SELECT_ID}
              aria-label="Permission mode"
              title={MODE_HELP}
              value={mode ?? 'ask'}
              onChange={(e) => void setMode(e.target.value as PermissionModeWire)}
            >
              {permissionModeWire.options.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABEL[m]}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="button"
          className="danger"
          disabled={!active}
          onClick={() => void stop()}
          aria-keyshortcuts="Escape"
          title="Stop the run (Esc); what it already wrote stays"
        >
          Stop
        </button>
      </div>
    </header>
  );
}

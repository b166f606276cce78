import { useState, type FormEvent } from 'react';
import { useClient } from '../../client-context';
import { useProjects } from '../../state/projects-store';
import { useAppStores } from '../../state/session-views-context';
import { createSession } from '../../state/session-actions';
import { errorText } from '../../state/agent-actions';
import { useHostQuery } from '../../lib/use-host-query';
import { Dialog } from '../common/Dialog';
import { AgentChoices } from './AgentChoices';
import { remotePlaceText } from '../../lib/remote-place';

/**
 * "New session" with a choice of agent (issue 30: the app's own, or an external ACP agent from
 * configs/app.json or a preset; one that cannot run is shown off with why) and of where it works
 * (issue 28): the project's checkout, or a new git worktree on a branch of its own (named here, or
 * by the app from the session), and whether new sessions of this project start in a worktree by
 * default (worktrees.default_for, which the plain New session button and Ctrl/Cmd+N follow). An
 * external agent works in the checkout (the host refuses it a worktree for now). Keyboard: the
 * place is focused first (arrows pick, Tab to the branch), the agent group is further on, Enter
 * creates.
 */
export function NewSessionDialog({ onClose }: { onClose: () => void }) {
  const client = useClient();
  const stores = useAppStores();
  const current = useProjects((s) => s.current);
  const project = useProjects((s) => s.projects.find((p) => p.key === current));
  const settings = useHostQuery('settings.get', {}, 'settings');
  const agents = useHostQuery('agents.list', {}, 'settings');
  const [agent, setAgent] = useState<string | null>(null);
  const [where, setWhere] = useState<'checkout' | 'worktree'>('worktree');
  const [branch, setBranch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const defaults = settings.data?.worktrees_default_for ?? [];
  const isDefault = current !== null && defaults.includes(current);
  // A worktree needs a git checkout with a branch; the host says why for anything subtler. A
  // project on an SSH host whose host is not connected yet has no branch read: its host's git
  // makes the worktree, or says why it cannot.
  const repo = project?.remote
    ? !!project.branch || project.remote.state !== 'connected'
    : !!project?.path && !!project?.branch;
  const canWorktree = repo && agent === null;
  const checkout = project?.remote ? remotePlaceText(project.remote) : project?.path;

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const b = branch.trim();
      const worktree = where === 'worktree' && canWorktree ? (b ? { branch: b } : true) : null;
      await createSession(client, stores, { worktree, agent });
      onClose();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const setDefault = (on: boolean) => {
    if (current === null) return;
    const next = on ? [...defaults, current] : defaults.filter((k) => k !== current);
    void settings.act(() => client.invoke('settings.update', { worktrees_default_for: next }));
  };

  return (
    <Dialog label="New session" onClose={onClose} className="new-session">
      <form className="form" onSubmit={(e) => void create(e)}>
        <h2>New session in {project?.name ?? 'no project'}</h2>
        <fieldset>
          <legend>Where the agent works</legend>
          <label className="radio">
            <input
              type="radio"
              name="where"
              checked={where === 'worktree' && canWorktree}
              disabled={!canWorktree}
              onChange={() => setWhere('worktree')}
              autoFocus={canWorktree}
            />
            In a new worktree{project?.remote ? ` on ${project.remote.host}` : ''}: its own branch
            {project?.branch ? ` from ${project.branch}` : ''}, the checkout untouched until you
            apply its work
          </label>
          <label className="radio">
            <input
              type="radio"
              name="where"
              checked={where === 'checkout' || !canWorktree}
              onChange={() => setWhere('checkout')}
              autoFocus={!canWorktree}
            />
            In the checkout{checkout ? ` (${checkout})` : ''}
          </label>
          {!repo && (
            <p className="muted small">
              A worktree needs a git repository with a branch checked out; this project has none.
            </p>
          )}
          {repo && agent !== null && (
            <p className="muted small">
              An external agent works in the checkout: it cannot have a worktree of its own yet.
            </p>
          )}
        </fieldset>
        {where === 'worktree' && canWorktree && (
          <label>
            Branch
            <input
              value={branch}
              placeholder="left empty: named for the session"
              maxLength={200}
              spellCheck={false}
              onChange={(e) => setBranch(e.target.value)}
            />
          </label>
        )}
        {repo && current !== null && (
          <label className="radio">
            <input
              type="checkbox"
              checked={isDefault}
              disabled={!settings.data}
              onChange={(e) => setDefault(e.target.checked)}
            />
            Start every new session of {project?.name} in a new worktree
          </label>
        )}
        <AgentChoices agents={agents.data?.agents} chosen={agent} onChoose={setAgent} />
        {(error ?? settings.actionError) && (
          <p className="error-text" role="alert">
            {error ?? settings.actionError}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create session'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

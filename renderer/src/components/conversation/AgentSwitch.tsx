import { useState } from 'react';
import { useClient } from '../../client-context';
import { errorText } from '../../state/agent-actions';
import { useHostQuery } from '../../lib/use-host-query';
import { useSessions } from '../../state/sessions-store';
import { OWN_AGENT_LABEL } from '../dialogs/AgentChoices';

/**
 * The agent the session's turns run on (issue 30): the app's own or an external ACP agent.
 * Changeable until the first message (the host refuses later: the agent holds the conversation);
 * after that the select stays to show it, disabled, with why in its tooltip.
 */
export function AgentSwitch({
  id,
  agent,
  fixed,
}: {
  id: string;
  agent: string | undefined;
  fixed: boolean;
}) {
  const client = useClient();
  const agents = useHostQuery('agents.list', {}, 'settings');
  const upsert = useSessions((s) => s.upsertSession);
  const [error, setError] = useState<string | null>(null);
  const list = agents.data?.agents ?? [];
  const current = list.find((a) => a.name === agent);
  const label = agent ? (current?.label ?? agent) : OWN_AGENT_LABEL;
  const choose = async (value: string) => {
    try {
      const { session } = await client.invoke('sessions.setAgent', { id, agent: value || null });
      upsert(session);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const why = fixed
    ? `This session runs on ${label}; its agent is fixed once it has messages (start a new session for another)`
    : `The agent this session runs on: ${label}`;
  return (
    <label className="agent-switch" title={error ?? why}>
      <span className="visually-hidden">Agent</span>
      <select
        aria-label="Agent"
        value={agent ?? ''}
        disabled={fixed}
        aria-invalid={error ? true : undefined}
        onChange={(e) => void choose(e.target.value)}
      >
        <option value="">{OWN_AGENT_LABEL}</option>
        {agent && !current && <option value={agent}>{agent}</option>}
        {list.map((a) => (
          <option key={a.name} value={a.name} disabled={!a.available}>
            {a.label}
            {a.available ? '' : ' (not available)'}
          </option>
        ))}
      </select>
      {error && (
        <span className="visually-hidden" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}

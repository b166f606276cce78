import type { AgentChoice } from '../../../../shared/protocol/commands/agents';

/** The app's own agent's name wherever a session's agent is shown. */
export const OWN_AGENT_LABEL = 'Mewbo (this app)';

/**
 * Which agent runs a new session: the app's own first, then each external ACP
 * agent; one that cannot run now is shown off with the host's reason beside it, so the user
 * learns what to install or enable instead of not finding it.
 */
export function AgentChoices({
  agents,
  chosen,
  onChoose,
}: {
  agents: AgentChoice[] | undefined;
  chosen: string | null;
  onChoose: (name: string | null) => void;
}) {
  return (
    <fieldset className="agent-choices">
      <legend>Agent</legend>
      <label className="radio">
        <input
          type="radio"
          name="agent"
          checked={chosen === null}
          onChange={() => onChoose(null)}
        />
        {OWN_AGENT_LABEL}
      </label>
      {agents?.map((a) => (
        <label key={a.name} className={`radio ${a.available ? '' : 'off'}`}>
          <input
            type="radio"
            name="agent"
            value={a.name}
            checked={chosen === a.name}
            disabled={!a.available}
            aria-describedby={a.reason ? `agent-why-${a.name}` : undefined}
            onChange={() => onChoose(a.name)}
          />
          <span>
            {a.label} <code className="small">{a.command}</code>
            {a.reason && (
              <span id={`agent-why-${a.name}`} className="muted small agent-why">
                {' '}
                — {a.reason}
              </span>
            )}
          </span>
        </label>
      ))}
      {agents && agents.length === 0 && (
        <p className="muted small">
          No external agents: add one as agents.NAME in configs/app.json (see the README).
        </p>
      )}
    </fieldset>
  );
}

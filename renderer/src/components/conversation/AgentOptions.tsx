import { useClient } from '../../client-context';
import type { SessionViewState } from '../../state/session-view-store';
import { errorText } from '../../state/agent-actions';

/**
 * An external agent's own session settings (ACP configOptions: its model, its reasoning level...)
 * in the header: a select per choice, grouped as the agent groups its values, a checkbox per
 * switch. A change is sent to the agent (session/set_config_option); the agent's answer, logged,
 * is what the controls show, so a refused change springs back.
 */
export function AgentOptions({
  id,
  options,
  onError,
}: {
  id: string;
  options: SessionViewState['agentOptions'];
  onError(message: string): void;
}) {
  const client = useClient();
  const set = async (option: string, value: string | boolean) => {
    try {
      await client.invoke('agents.setOption', { id, option, value });
    } catch (err) {
      onError(errorText(err));
    }
  };
  return (
    <>
      {options.map((o) =>
        o.type === 'boolean' ? (
          <label key={o.id} className="agent-option" title={o.description}>
            <input
              type="checkbox"
              checked={o.current}
              onChange={(e) => void set(o.id, e.target.checked)}
            />
            {o.name}
          </label>
        ) : (
          <label key={o.id} className="agent-option" title={o.description}>
            <span className="visually-hidden">{o.name}</span>
            <select
              aria-label={o.name}
              value={o.current}
              onChange={(e) => void set(o.id, e.target.value)}
            >
              {groups(o.choices).map(([group, choices]) => {
                const items = choices.map((c) => (
                  <option key={c.value} value={c.value} title={c.description}>
                    {c.name}
                  </option>
                ));
                return group ? (
                  <optgroup key={group} label={group}>
                    {items}
                  </optgroup>
                ) : (
                  items
                );
              })}
            </select>
          </label>
        ),
      )}
    </>
  );
}

type Choice = Extract<
  SessionViewState['agentOptions'][number],
  { type: 'select' }
>['choices'][number];

/** The values in the agent's order, runs of one group together (ungrouped values: group ''). */
function groups(choices: Choice[]): [string, Choice[]][] {
  const out: [string, Choice[]][] = [];
  for (const c of choices) {
    const last = out.at(-1);
    if (last && last[0] === (c.group ?? '')) last[1].push(c);
    else out.push([c.group ?? '', [c]]);
  }
  return out;
}

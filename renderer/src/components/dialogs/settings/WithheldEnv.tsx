import { useHostQuery } from '../../../lib/use-host-query';

/** The credential-looking environment variables shells do not get (agent.shell_env_allow). */
export function WithheldEnv() {
  const q = useHostQuery('shells.withheldEnv', {}, 'settings');
  if (!q.data) return null;
  const { withheld, allowed } = q.data;
  return (
    <div className="small" role="group" aria-label="Withheld environment">
      <p className="muted">
        Shells get no credential-looking variables (names like <code>*_API_KEY</code>,{' '}
        <code>*_TOKEN</code>, <code>AWS_*</code>); list a name in <code>agent.shell_env_allow</code>{' '}
        to pass it on.
      </p>
      <p>
        Withheld now:{' '}
        {withheld.length ? withheld.map((n) => <code key={n}>{n} </code>) : <span>none</span>}
      </p>
      {allowed.length > 0 && (
        <p>
          Allowed:{' '}
          {allowed.map((n) => (
            <code key={n}>{n} </code>
          ))}
        </p>
      )}
    </div>
  );
}

import { useClient } from '../../../client-context';
import { useHostQuery } from '../../../lib/use-host-query';
import type { RulesOverview } from '../../../../../shared/protocol/commands/rules';

// Issue 20 in Settings: permission rules by scope with where each came from (removable), the
// skills and slash commands and their files, and what is wrong in those files (file and line).

type Rule = RulesOverview['rules'][number];
const SCOPES: { id: Rule['scope']; label: string }[] = [
  { id: 'session', label: 'This session (until the app quits)' },
  { id: 'project', label: 'Projects (.mewbo/settings.json, .claude/settings.json)' },
  { id: 'user', label: 'Everywhere (configs/app.json)' },
];
const at = (file?: string, line?: number) => (file ? `${file}${line ? `:${line}` : ''}` : '');

export function RulesSettings() {
  const client = useClient();
  const q = useHostQuery('rules.overview', {}, 'settings');
  if (q.error) return <p className="error-text">{q.error}</p>;
  if (!q.data) return <p className="muted">Loading…</p>;
  const data = q.data;
  const remove = (r: Rule) =>
    q.act(() =>
      client.invoke('rules.remove', {
        kind: r.kind,
        rule: r.rule,
        scope: r.scope,
        ...(r.root ? { root: r.root } : {}),
        ...(r.file ? { file: r.file } : {}),
        ...(r.session_id ? { session_id: r.session_id } : {}),
      }),
    );
  return (
    <div className="form">
      <p className="muted small">
        Permission rules decide a call before the mode does: deny beats ask beats allow, in every
        mode. A project&apos;s rules, hooks, skills and commands apply only once it is trusted.
      </p>
      {q.actionError && (
        <p className="error-text" role="alert">
          {q.actionError}
        </p>
      )}
      {data.warnings.length > 0 && (
        <section aria-label="Problems in rules, hooks and skills">
          <h3>Problems</h3>
          <ul className="small">
            {data.warnings.map((w) => (
              <li key={`${w.file}:${w.line}:${w.message}`} className="error-text">
                <code>{at(w.file, w.line)}</code>: {w.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      {SCOPES.map((s) => {
        const rules = data.rules.filter((r) => r.scope === s.id);
        return (
          <section key={s.id} aria-label={`Rules: ${s.label}`}>
            <h3>{s.label}</h3>
            {rules.length === 0 ? (
              <p className="muted small">No rules.</p>
            ) : (
              <table className="grid-table">
                <tbody>
                  {rules.map((r) => (
                    <tr key={`${r.kind}:${r.rule}:${r.file ?? r.session_id}`}>
                      <td className="small">{r.kind}</td>
                      <td>
                        <code>{r.rule}</code>
                        <div className="muted small">
                          {r.scope === 'session' ? `session ${r.session_id}` : at(r.file, r.line)}
                        </div>
                      </td>
                      <td>
                        <button
                          type="button"
                          aria-label={`Remove ${r.kind} rule ${r.rule}`}
                          onClick={() => void remove(r)}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
      <Origins title="Skills" items={data.skills} />
      <Origins title="Commands" items={data.commands} />
    </div>
  );
}

function Origins({ title, items }: { title: string; items: RulesOverview['skills'] }) {
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <table className="grid-table">
          <tbody>
            {items.map((i) => (
              <tr key={i.file}>
                <td>
                  <code>/{i.name}</code>
                  <div className="muted small">{i.description}</div>
                </td>
                <td className="small">
                  {i.scope === 'user' ? 'yours' : 'project'}
                  <div className="muted">
                    <code>{i.file}</code>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

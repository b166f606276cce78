import { ruleInWords } from '../../lib/rule-words';

// "Always allow" on an approval: what the rule it would add allows, in words (the rule itself in
// the tooltip), and where it goes (this session, this project's .mewbo/settings.json, or the
// user's configs/app.json; no project file for a session on an SSH host). It takes effect on the next call; Settings lists and removes it.

export type AlwaysScope = 'session' | 'project' | 'user';

export const SCOPE_LABEL: Record<AlwaysScope, string> = {
  session: 'this session',
  project: 'this project',
  user: 'everywhere',
};

/**
 * The scopes a session may add a rule to. A session on an SSH host has no "this project": its
 * settings file is on the host, which the app does not write (the host refuses that scope).
 */
export function alwaysScopes(remote: boolean): AlwaysScope[] {
  return remote ? ['session', 'user'] : ['session', 'project', 'user'];
}

export function AlwaysAllow(props: {
  rule: string;
  scopes: readonly AlwaysScope[];
  scope: AlwaysScope;
  onScope(scope: AlwaysScope): void;
  busy: boolean;
  onAllow(): void;
}) {
  return (
    <div className="actions always-allow">
      <span className="muted">Always allow</span>
      <span className="rule-words" aria-label="Rule to add" title={`Rule: ${props.rule}`}>
        {ruleInWords(props.rule)}
      </span>
      <select
        aria-label="Where the rule applies"
        value={props.scope}
        onChange={(e) => props.onScope(e.target.value as AlwaysScope)}
      >
        {props.scopes.map((s) => (
          <option key={s} value={s}>
            {SCOPE_LABEL[s]}
          </option>
        ))}
      </select>
      <button type="button" disabled={props.busy} onClick={props.onAllow}>
        Always allow
      </button>
    </div>
  );
}

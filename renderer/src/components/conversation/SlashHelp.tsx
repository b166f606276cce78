import { Dialog } from '../common/Dialog';
import { shortcutLabel } from '../../lib/shortcuts';
import { APPROVE_KEYS, DENY_KEYS } from '../../lib/approval-keys';
import { useHostQuery } from '../../lib/use-host-query';
import { BUILTINS } from './SlashMenu';

/** The keys the app answers to, as the rest of the app names them. */
const SHORTCUTS: readonly [keys: string, what: string][] = [
  ['Enter', 'send the message (Shift+Enter: a new line)'],
  ['@', 'mention a project file to attach it'],
  ['/', 'run a command or skill'],
  ['Esc', 'stop the run (or close a list or dialog)'],
  [shortcutLabel('F'), 'find in the conversation'],
  [`${APPROVE_KEYS} / ${DENY_KEYS}`, 'approve / deny the waiting approval'],
  [shortcutLabel('N'), 'new session'],
  [shortcutLabel('P'), 'open a project'],
  [shortcutLabel('B'), 'show or hide the sessions'],
  [shortcutLabel(','), 'settings'],
];

/** /help: the built-in commands, the user's commands and skills, and the keyboard shortcuts. */
export function SlashHelp({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const listed = useHostQuery('commands.list', { id: sessionId });
  // A list that could not be read shows as none: the built-ins and shortcuts still help.
  const entries = listed.data?.commands ?? (listed.error ? [] : null);
  const builtin = new Set(BUILTINS.map((b) => b.name));

  return (
    <Dialog label="Commands and shortcuts" onClose={onClose} className="slash-help">
      <div className="dialog-head">
        <h2>Commands and shortcuts</h2>
        <button type="button" onClick={onClose} autoFocus title="Close (Esc)">
          Close
        </button>
      </div>
      <section aria-label="Built-in commands">
        <h3>Built-in commands</h3>
        <p className="muted small">
          They run in the app and are never sent to the model. One of yours with the same name is
          hidden behind them.
        </p>
        <dl>
          {BUILTINS.map((b) => (
            <div key={b.name}>
              <dt>
                <code>
                  /{b.name}
                  {b.hint ? ` ${b.hint}` : ''}
                </code>
              </dt>
              <dd>{b.description}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-label="Your commands and skills">
        <h3>Your commands and skills</h3>
        {entries === null ? (
          <p className="muted small">Loading…</p>
        ) : entries.length === 0 ? (
          <p className="muted small">None yet.</p>
        ) : (
          <dl>
            {entries.map((e) => (
              <div key={`${e.kind}:${e.name}`}>
                <dt>
                  <code>/{e.name}</code>
                </dt>
                <dd>
                  {e.description} ({e.kind === 'skill' ? 'skill, ' : ''}
                  {e.scope === 'user' ? 'yours' : 'project'})
                  {builtin.has(e.name) && <strong> Hidden: the built-in /{e.name} runs.</strong>}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section aria-label="Keyboard shortcuts">
        <h3>Keyboard shortcuts</h3>
        <dl>
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys}>
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </section>
    </Dialog>
  );
}

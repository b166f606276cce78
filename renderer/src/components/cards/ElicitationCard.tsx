import { memo, useState, type FormEvent } from 'react';
import type { ElicitationItem } from '../../state/timeline-items';
import { useClient } from '../../client-context';
import { answerElicitation, errorText } from '../../state/agent-actions';
import { useSessionId } from '../timeline/session-context';
import {
  initialInput,
  inputKind,
  readInput,
  type ElicitContent,
  type ElicitField,
  type ElicitForm,
  type ElicitInput,
} from '../../../../shared/mcp/elicitation-form';

// An MCP server's elicitation, drawn like ask_user_question's card with the server named as the one
// asking: a form of typed fields (defaults filled, checked here with the host's own rules before it
// is sent, and again on the host), or a page to open (its host shown plainly; opened by the app only
// once the person chooses Open page). Submit / Open page, Decline, Cancel are what the server hears.

type Action = 'accept' | 'decline' | 'cancel';

/** Options shown as radio buttons up to this many; a longer list is a drop-down. */
const RADIO_MAX_OPTIONS = 6;

const ANSWERED: Record<Action, string> = {
  accept: 'answered',
  decline: 'declined',
  cancel: 'cancelled',
};

export const ElicitationCard = memo(function ElicitationCard({ item }: { item: ElicitationItem }) {
  const state = item.answer ? item.answer.action : 'pending';
  return (
    <article
      className={`card elicitation ${state === 'pending' ? 'pending' : 'done'}`}
      aria-label={`${item.server} asks: ${item.message}`}
    >
      <header className="card-head static">
        <span
          className={`status-dot ${state === 'pending' ? 'waiting' : 'done'}`}
          aria-hidden="true"
        />
        <span className="card-title">{item.server}</span>
        <span className="card-subject">
          {item.asker === 'agent' ? 'Agent asks' : 'MCP server asks'}
        </span>
        {item.answer && (
          <span className="card-meta">
            {ANSWERED[item.answer.action]}
            {item.answer.via ? ` on ${item.answer.via.device_name}` : ''}
          </span>
        )}
      </header>
      <div className="card-body">
        <p className="elicit-message">{item.message}</p>
        {item.mode === 'url' ? (
          <UrlBody item={item} />
        ) : item.answer ? (
          <AnsweredForm item={item} form={item.form!} />
        ) : (
          <FormBody item={item} form={item.form!} />
        )}
      </div>
    </article>
  );
});

function useAnswer(item: ElicitationItem) {
  const client = useClient();
  const sessionId = useSessionId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (action: Action, content?: ElicitContent) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await answerElicitation(client, sessionId, item.elicitationId, action, content);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, send };
}

function Actions({ busy, error, send, accept }: ReturnType<typeof useAnswer> & { accept: string }) {
  return (
    <div className="actions">
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {accept}
      </button>
      <button type="button" disabled={busy} onClick={() => void send('decline')}>
        Decline
      </button>
      <button type="button" disabled={busy} onClick={() => void send('cancel')}>
        Cancel
      </button>
    </div>
  );
}

function FormBody({ item, form }: { item: ElicitationItem; form: ElicitForm }) {
  const answer = useAnswer(item);
  const [raw, setElicitInput] = useState<Record<string, ElicitInput>>(() =>
    Object.fromEntries(form.fields.map((f) => [f.name, initialInput(f)])),
  );
  const [checked, setChecked] = useState(false);
  const results = Object.fromEntries(form.fields.map((f) => [f.name, readInput(f, raw[f.name]!)]));
  const set = (name: string, value: ElicitInput) =>
    setElicitInput((all) => ({ ...all, [name]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.values(results).some((r) => r.error)) return;
    const content: ElicitContent = {};
    for (const [name, r] of Object.entries(results))
      if (r.value !== undefined) content[name] = r.value;
    void answer.send('accept', content);
  };

  return (
    <form className="question-form elicit-form" onSubmit={submit} noValidate>
      {form.fields.map((field) => (
        <FieldInput
          key={field.name}
          id={`${item.key}-${field.name}`}
          field={field}
          raw={raw[field.name]!}
          error={checked ? results[field.name]!.error : undefined}
          onChange={(v) => set(field.name, v)}
        />
      ))}
      <Actions {...answer} accept="Submit" />
    </form>
  );
}

function FieldInput({
  id,
  field,
  raw,
  error,
  onChange,
}: {
  id: string;
  field: ElicitField;
  raw: ElicitInput;
  error?: string;
  onChange(value: ElicitInput): void;
}) {
  const described = [field.description ? `${id}-desc` : '', error ? `${id}-err` : '']
    .filter(Boolean)
    .join(' ');
  const aria = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  } as const;
  const label = (
    <>
      {field.title}
      {field.required && (
        <span className="required" aria-label="required">
          {' '}
          *
        </span>
      )}
    </>
  );
  const notes = (
    <>
      {field.description && (
        <span id={`${id}-desc`} className="field-desc">
          {field.description}
        </span>
      )}
      {error && (
        <span id={`${id}-err`} className="field-error" role="alert">
          {field.title} {error}
        </span>
      )}
    </>
  );

  if (field.kind === 'boolean')
    return (
      <div className="elicit-field">
        <label className="check">
          <input
            type="checkbox"
            checked={raw === true}
            onChange={(e) => onChange(e.target.checked)}
            {...aria}
          />{' '}
          {label}
        </label>
        {notes}
      </div>
    );

  if (field.kind === 'choice' || field.kind === 'choices') {
    const many = field.kind === 'choices';
    if (!many && field.options.length > RADIO_MAX_OPTIONS)
      return (
        <div className="elicit-field">
          <label htmlFor={id}>{label}</label>
          <select
            id={id}
            value={raw as string}
            onChange={(e) => onChange(e.target.value)}
            {...aria}
          >
            {(!field.required || raw === '') && <option value="">—</option>}
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {notes}
        </div>
      );
    const picked = many ? (raw as string[]) : [raw as string];
    return (
      <fieldset className="question-set elicit-field" {...aria}>
        <legend>{label}</legend>
        {field.options.map((o) => {
          const on = picked.includes(o.value);
          return (
            <label key={o.value} className={`option ${on ? 'checked' : ''}`}>
              <input
                type={many ? 'checkbox' : 'radio'}
                name={id}
                checked={on}
                onChange={() =>
                  onChange(
                    many
                      ? on
                        ? picked.filter((v) => v !== o.value)
                        : [...picked, o.value]
                      : o.value,
                  )
                }
              />
              <span className="option-label">{o.label}</span>
            </label>
          );
        })}
        {notes}
      </fieldset>
    );
  }

  const kind = inputKind(field);
  return (
    <div className="elicit-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={kind.type}
        value={raw as string}
        onChange={(e) => onChange(e.target.value)}
        {...(field.kind === 'number'
          ? {
              step: field.integer ? 1 : 'any',
              min: field.minimum,
              max: field.maximum,
              inputMode: field.integer ? ('numeric' as const) : ('decimal' as const),
            }
          : { maxLength: field.max_length })}
        placeholder={kind.placeholder}
        {...aria}
      />
      {notes}
    </div>
  );
}

function AnsweredForm({ item, form }: { item: ElicitationItem; form: ElicitForm }) {
  const a = item.answer!;
  if (a.action !== 'accept') return <AnswerNote item={item} />;
  const shown = (field: ElicitField, value: unknown): string => {
    if (value === undefined) return '—';
    if (field.kind === 'boolean') return value ? 'Yes' : 'No';
    if (field.kind === 'choice' || field.kind === 'choices') {
      const label = (v: string) => field.options.find((o) => o.value === v)?.label ?? v;
      return Array.isArray(value) ? value.map(label).join(', ') || '—' : label(String(value));
    }
    return String(value);
  };
  return (
    <dl className="kv">
      {form.fields.map((f) => (
        <div key={f.name} className="kv-row">
          <dt>{f.title}</dt>
          <dd>{shown(f, a.content?.[f.name])}</dd>
        </div>
      ))}
    </dl>
  );
}

function AnswerNote({ item }: { item: ElicitationItem }) {
  const a = item.answer!;
  const text =
    a.action === 'decline'
      ? `Declined: ${item.server} was told no.`
      : `Cancelled${a.reason ? `: ${a.reason}` : '.'}`;
  return <p className="muted small">{text}</p>;
}

function UrlBody({ item }: { item: ElicitationItem }) {
  const answer = useAnswer(item);
  const url = item.url!;
  const host = new URL(url).host;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void answer.send('accept');
  };
  const page = (
    <p className="elicit-page">
      <span>
        The server asks you to open a page on <strong className="elicit-host">{host}</strong>
      </span>
      <code className="elicit-url">{url}</code>
    </p>
  );
  if (item.answer?.action === 'accept')
    return (
      <>
        {page}
        <p className="muted small">
          Opened in your browser. If no page opened,{' '}
          <a href={url} target="_blank" rel="noopener noreferrer">
            open it yourself
          </a>
          .
        </p>
      </>
    );
  if (item.answer)
    return (
      <>
        {page}
        <AnswerNote item={item} />
      </>
    );
  return (
    <form className="question-form" onSubmit={submit}>
      {page}
      <p className="muted small">Nothing opens until you choose Open page.</p>
      <Actions {...answer} accept="Open page" />
    </form>
  );
}

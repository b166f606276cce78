import { memo, useState, type FormEvent } from 'react';
import type { QuestionItem } from '../../state/timeline-items';
import { useClient } from '../../client-context';
import { answerQuestion, errorText, type QuestionAnswer } from '../../state/agent-actions';
import { useSessionId } from '../timeline/session-context';

type Draft = { selected: number[]; text: string };

const STATE_NOTE: Record<QuestionItem['state'], string> = {
  pending: 'The agent is waiting for your answer.',
  expired: 'The wait timed out. You can still answer: it reaches the agent as a new message.',
  superseded:
    'A newer message superseded this question. An answer still reaches the agent as a new message.',
  answered: '',
};

/** ask_user_question: options and free text per question, answerable late (expired, superseded). */
export const QuestionCard = memo(function QuestionCard({ item }: { item: QuestionItem }) {
  const title =
    item.questions.length === 1
      ? item.questions[0]!.header || 'Question'
      : `${item.questions.length} questions`;
  return (
    <article className={`card question ${item.state}`} aria-label={`Question: ${title}`}>
      <header className="card-head static">
        <span
          className={`status-dot ${item.state === 'answered' ? 'done' : 'waiting'}`}
          aria-hidden="true"
        />
        <span className="card-title">Question</span>
        <span className="card-subject">{title}</span>
        {item.state === 'answered' && (
          <span className="card-meta">answered{item.delivery === 'late' ? ' late' : ''}</span>
        )}
      </header>
      <div className="card-body">
        {item.state === 'answered' ? <AnsweredView item={item} /> : <AnswerForm item={item} />}
      </div>
    </article>
  );
});

function AnswerForm({ item }: { item: QuestionItem }) {
  const client = useClient();
  const sessionId = useSessionId();
  const [drafts, setDrafts] = useState<Draft[]>(() =>
    item.questions.map(() => ({ selected: [], text: '' })),
  );
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const complete = drafts.every((d) => d.selected.length > 0 || d.text.trim());

  const set = (i: number, d: Draft) => setDrafts((all) => all.map((x, k) => (k === i ? d : x)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!complete || busy) return;
    // Options or free text per question, never both: typed text wins (it is the more specific).
    const answer: QuestionAnswer = {
      answers: drafts.map((d) =>
        d.text.trim() ? { text: d.text.trim() } : { selected: d.selected },
      ),
      ...(notes.trim() ? { notes: notes.trim() } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      await answerQuestion(client, sessionId, item.questionId, answer);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="question-form" onSubmit={submit}>
      {STATE_NOTE[item.state] && (
        <p className={`muted small ${item.state !== 'pending' ? 'warn' : ''}`}>
          {STATE_NOTE[item.state]}
        </p>
      )}
      {item.questions.map((q, i) => (
        <fieldset key={i} className="question-set">
          <legend>
            {q.header && <span className="chip">{q.header}</span>} {q.question}
          </legend>
          {q.options.map((o, k) => {
            const checked = drafts[i]!.selected.includes(k);
            return (
              <label key={k} className={`option ${checked ? 'checked' : ''}`}>
                <input
                  type={q.multi_select ? 'checkbox' : 'radio'}
                  name={`${item.key}-q${i}`}
                  checked={checked}
                  onChange={() => {
                    const sel = q.multi_select
                      ? checked
                        ? drafts[i]!.selected.filter((x) => x !== k)
                        : [...drafts[i]!.selected, k]
                      : [k];
                    set(i, { selected: sel, text: '' });
                  }}
                />
                <span className="option-label">{o.label}</span>
                {o.description && <span className="option-desc">{o.description}</span>}
              </label>
            );
          })}
          <input
            type="text"
            className="free-text"
            aria-label={
              q.options.length ? `Other answer to: ${q.question}` : `Answer to: ${q.question}`
            }
            placeholder={q.options.length ? 'Or type another answer…' : 'Type your answer…'}
            value={drafts[i]!.text}
            onChange={(e) =>
              set(i, { selected: e.target.value ? [] : drafts[i]!.selected, text: e.target.value })
            }
          />
        </fieldset>
      ))}
      <textarea
        className="notes"
        aria-label="Notes"
        rows={2}
        placeholder={item.notesPlaceholder || 'Notes for the agent (optional)'}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
      />
      <div className="actions">
        {error && (
          <span className="error-text" role="alert">
            {error}
          </span>
        )}
        <button type="submit" className="primary" disabled={!complete || busy}>
          Answer
        </button>
      </div>
    </form>
  );
}

function AnsweredView({ item }: { item: QuestionItem }) {
  return (
    <dl className="kv">
      {item.questions.map((q, i) => {
        const a = item.answer?.answers[i];
        const shown = !a
          ? '—'
          : 'text' in a
            ? a.text
            : a.selected.map((k) => q.options[k]?.label ?? `#${k}`).join(', ');
        return (
          <div key={i} className="kv-row">
            <dt>{q.question}</dt>
            <dd>{shown}</dd>
          </div>
        );
      })}
      {item.answer?.notes && (
        <div className="kv-row">
          <dt>Notes</dt>
          <dd>{item.answer.notes}</dd>
        </div>
      )}
    </dl>
  );
}

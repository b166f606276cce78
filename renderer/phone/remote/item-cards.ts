import type {
  RemoteApprovalItem,
  RemoteElicitationItem,
  RemoteItem,
} from '../../../shared/device/remote-frames';
import {
  initialInput,
  inputKind,
  readInput,
  type ElicitContent,
  type ElicitField,
  type ElicitInput,
} from '../../../shared/mcp/elicitation-form';
import { hashMatches } from './approval-hash';
import { el } from '../dom';

// One waiting item as a card: an approval with its whole command or diff and Approve / Deny (an
// external agent's: its own choices), a
// question with its options and Answer, or an MCP server's elicitation (its form's typed fields,
// checked with the host's own rules, or the host of the page it asks to open) with Submit or Open
// page, Decline and Cancel. Everything the desktop sent is shown as text (never
// HTML). The card reports the person's decision through `act`, which says how it went.

export type CardAction =
  | {
      kind: 'decide';
      decision: 'allow' | 'deny';
      reason?: string;
      /** An external agent's option, by id, and its label (said back when it is sent). */
      option?: string;
      name?: string;
    }
  | { kind: 'answer'; answers: ({ selected: number[] } | { text: string })[]; notes?: string }
  | { kind: 'elicit'; action: 'accept' | 'decline' | 'cancel'; content?: ElicitContent };

export type ActResult = { ok: true; done: string } | { ok: false; message: string };

export interface CardOptions {
  act(action: CardAction): Promise<ActResult>;
}

/** The key a card is kept under between refreshes: a changed approval is a new card. */
export function itemKey(item: RemoteItem): string {
  return item.kind === 'approval'
    ? `a:${item.session_id}:${item.approval_id}:${item.hash}`
    : item.kind === 'question'
      ? `q:${item.session_id}:${item.question_id}`
      : `e:${item.session_id}:${item.elicitation_id}`;
}

export function itemCard(item: RemoteItem, options: CardOptions): HTMLElement {
  return item.kind === 'approval'
    ? approvalCard(item, options)
    : item.kind === 'question'
      ? questionCard(item, options)
      : elicitationCard(item, options);
}

/** A diff's lines coloured by what they do; any other detail as plain text. */
function detailBlock(detail: string): HTMLElement {
  const pre = el('pre', 'detail');
  if (!/^@@ /m.test(detail)) {
    pre.textContent = detail;
    return pre;
  }
  for (const line of detail.replace(/\n$/, '').split('\n')) {
    const kind = line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+') && !line.startsWith('+++')
        ? 'add'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'del'
          : '';
    pre.append(el('span', kind ? `line ${kind}` : 'line', `${line}\n`));
  }
  return pre;
}

function statusLine(): HTMLElement {
  const status = el('p', 'item-status');
  status.setAttribute('role', 'status');
  return status;
}

/** Runs an action with the card's buttons disabled, and shows what came of it. */
async function perform(
  card: HTMLElement,
  status: HTMLElement,
  options: CardOptions,
  action: CardAction,
): Promise<void> {
  const buttons = [...card.querySelectorAll('button')];
  for (const b of buttons) b.disabled = true;
  status.textContent = 'Sending…';
  status.dataset.tone = '';
  const result = await options.act(action);
  status.textContent = result.ok ? result.done : result.message;
  status.dataset.tone = result.ok ? 'ok' : 'bad';
  if (result.ok) card.dataset.decided = 'true';
  else for (const b of buttons) b.disabled = b.dataset.locked === 'true';
}

function approvalCard(item: RemoteApprovalItem, options: CardOptions): HTMLElement {
  const card = el('article', 'item approval');
  card.setAttribute('aria-label', `Approval: ${item.summary}`);
  card.append(el('p', 'item-session', item.session_title || 'Untitled session'));
  card.append(el('h3', undefined, item.summary));
  card.append(el('p', 'item-tool', `Tool: ${item.tool}`));
  card.append(detailBlock(item.detail));
  const warning = el('p', 'hint warn');
  warning.hidden = true;
  const actions = el('div', 'actions');
  // An external agent's request offers its own choices (allow once, always, reject...), each a
  // button with the agent's label; otherwise Approve / Deny.
  const choices: {
    button: HTMLButtonElement;
    decision: 'allow' | 'deny';
    option?: string;
    name?: string;
  }[] = item.options?.length
    ? item.options.map((o) => {
        const decision = o.kind.startsWith('allow') ? ('allow' as const) : ('deny' as const);
        return {
          button: el('button', decision === 'allow' ? 'approve' : 'deny', o.name),
          decision,
          option: o.id,
          name: o.name,
        };
      })
    : [
        { button: el('button', 'approve', 'Approve'), decision: 'allow' as const },
        { button: el('button', 'deny', 'Deny'), decision: 'deny' as const },
      ];
  const allows = choices.filter((c) => c.decision === 'allow').map((c) => c.button);
  for (const c of choices) {
    c.button.type = 'button';
    actions.append(c.button);
  }
  // Until the hash is checked, nothing may be approved.
  for (const b of allows) {
    b.disabled = true;
    b.dataset.locked = 'true';
  }
  const reason = el('input', 'reason');
  reason.placeholder = 'Reason (optional, sent with Deny)';
  reason.maxLength = 2000;
  reason.setAttribute('aria-label', 'Reason for denying');
  const status = statusLine();
  card.append(warning, actions, reason, status);

  const lock = (text: string) => {
    warning.hidden = false;
    warning.textContent = text;
  };
  if (item.truncated) {
    lock(
      'Too large to approve from the phone (it was cut): deny it here or decide on the desktop.',
    );
  } else {
    void hashMatches(item).then((ok) => {
      if (ok) {
        for (const b of allows) {
          b.dataset.locked = 'false';
          b.disabled = card.dataset.decided === 'true';
        }
      } else {
        lock('What the desktop would approve does not match what is shown: decide on the desktop.');
      }
    });
  }
  for (const c of choices)
    c.button.addEventListener('click', () =>
      perform(card, status, options, {
        kind: 'decide',
        decision: c.decision,
        ...(c.option ? { option: c.option, name: c.name } : {}),
        ...(c.decision === 'deny' && reason.value.trim() ? { reason: reason.value.trim() } : {}),
      }),
    );
  return card;
}

function questionCard(
  item: Extract<RemoteItem, { kind: 'question' }>,
  options: CardOptions,
): HTMLElement {
  const card = el('article', 'item question');
  const first = item.questions[0];
  card.setAttribute('aria-label', `Question: ${first?.question ?? 'the agent asks'}`);
  card.append(el('p', 'item-session', item.session_title || 'Untitled session'));
  const readers: (() => { selected: number[] } | { text: string } | string)[] = [];
  item.questions.forEach((q, qi) => {
    const set = el('fieldset');
    set.append(el('legend', undefined, q.header || `Question ${qi + 1}`));
    set.append(el('p', 'question-text', q.question));
    const name = `${item.question_id}-${qi}`;
    const inputs = q.options.map((option, oi) => {
      const label = el('label', 'option');
      const input = el('input');
      input.type = q.multi_select ? 'checkbox' : 'radio';
      input.name = name;
      input.value = String(oi);
      label.append(input, ` ${option.label}`);
      if (option.description) label.append(el('small', undefined, ` — ${option.description}`));
      set.append(label);
      return input;
    });
    const other = el('input', 'other');
    other.placeholder = q.options.length ? 'Or write your own answer' : 'Your answer';
    other.maxLength = 4000;
    other.setAttribute('aria-label', `Answer to: ${q.question}`);
    set.append(other);
    card.append(set);
    readers.push(() => {
      if (other.value.trim()) return { text: other.value.trim() };
      const selected = inputs.flatMap((input, i) => (input.checked ? [i] : []));
      return selected.length ? { selected } : `Choose an answer for “${q.header || q.question}”.`;
    });
  });
  let notes: HTMLTextAreaElement | undefined;
  if (item.notes_placeholder !== null) {
    notes = el('textarea', 'notes');
    notes.placeholder = item.notes_placeholder || 'Notes (optional)';
    notes.maxLength = 4000;
    notes.setAttribute('aria-label', 'Notes');
    card.append(notes);
  }
  const answer = el('button', 'answer', 'Answer');
  answer.type = 'button';
  const status = statusLine();
  card.append(el('div', 'actions'), status);
  card.querySelector('.actions')!.append(answer);
  answer.addEventListener('click', () => {
    const answers = readers.map((read) => read());
    const missing = answers.find((a): a is string => typeof a === 'string');
    if (missing) {
      status.textContent = missing;
      status.dataset.tone = 'bad';
      return;
    }
    void perform(card, status, options, {
      kind: 'answer',
      answers: answers as ({ selected: number[] } | { text: string })[],
      ...(notes?.value.trim() ? { notes: notes.value.trim() } : {}),
    });
  });
  return card;
}

/** One field of an elicitation's form: its input(s), and what they hold now. */
function elicitField(field: ElicitField, id: string): { node: HTMLElement; input(): ElicitInput } {
  const set = el('fieldset');
  set.append(el('legend', undefined, `${field.title}${field.required ? ' *' : ''}`));
  if (field.description) set.append(el('p', 'question-text', field.description));
  const start = initialInput(field);
  if (field.kind === 'choice' || field.kind === 'choices') {
    const many = field.kind === 'choices';
    const inputs = field.options.map((o) => {
      const label = el('label', 'option');
      const input = el('input');
      input.type = many ? 'checkbox' : 'radio';
      input.name = id;
      input.value = o.value;
      input.checked = Array.isArray(start) ? start.includes(o.value) : start === o.value;
      label.append(input, ` ${o.label}`);
      set.append(label);
      return input;
    });
    const picked = () => inputs.filter((i) => i.checked).map((i) => i.value);
    return { node: set, input: () => (many ? picked() : (picked()[0] ?? '')) };
  }
  const input = el('input');
  input.setAttribute('aria-label', field.title);
  if (field.kind === 'boolean') {
    const label = el('label', 'option');
    input.type = 'checkbox';
    input.checked = start === true;
    label.append(input, ' Yes');
    set.append(label);
    return { node: set, input: () => input.checked };
  }
  const kind = inputKind(field);
  input.type = kind.type;
  if (kind.placeholder) input.placeholder = kind.placeholder;
  if (field.kind === 'number') {
    input.step = field.integer ? '1' : 'any';
    input.inputMode = field.integer ? 'numeric' : 'decimal';
  }
  input.value = start as string;
  set.append(input);
  return { node: set, input: () => input.value };
}

function elicitationCard(item: RemoteElicitationItem, options: CardOptions): HTMLElement {
  const card = el('article', 'item elicitation');
  card.setAttribute('aria-label', `${item.server} asks: ${item.message}`);
  card.append(el('p', 'item-session', item.session_title || 'Untitled session'));
  card.append(el('h3', undefined, `${item.server} (MCP server) asks`));
  card.append(el('p', 'question-text', item.message));
  const fields = (item.form?.fields ?? []).map((f, i) =>
    elicitField(f, `${item.elicitation_id}-${i}`),
  );
  for (const f of fields) card.append(f.node);
  if (item.mode === 'url' && item.url) {
    const page = el('p', 'question-text');
    page.append('A page on ', el('strong', 'elicit-host', new URL(item.url).host));
    card.append(page, el('pre', 'detail', item.url));
    card.append(el('p', 'item-tool', 'The desktop opens it once you choose Open page.'));
  }
  const status = statusLine();
  const actions = el('div', 'actions');
  const accept = el('button', 'answer', item.mode === 'url' ? 'Open page' : 'Submit');
  const decline = el('button', 'deny', 'Decline');
  const cancel = el('button', 'cancel', 'Cancel');
  for (const b of [accept, decline, cancel]) b.type = 'button';
  actions.append(accept, decline, cancel);
  card.append(actions, status);
  accept.addEventListener('click', () => {
    const content: ElicitContent = {};
    for (const [i, f] of fields.entries()) {
      const field = item.form!.fields[i]!;
      const r = readInput(field, f.input());
      if (r.error) {
        status.textContent = `${field.title} ${r.error}`;
        status.dataset.tone = 'bad';
        return;
      }
      if (r.value !== undefined) content[field.name] = r.value;
    }
    void perform(card, status, options, {
      kind: 'elicit',
      action: 'accept',
      ...(item.mode === 'form' ? { content } : {}),
    });
  });
  decline.addEventListener('click', () =>
    perform(card, status, options, { kind: 'elicit', action: 'decline' }),
  );
  cancel.addEventListener('click', () =>
    perform(card, status, options, { kind: 'elicit', action: 'cancel' }),
  );
  return card;
}

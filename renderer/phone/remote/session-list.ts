import type { RemoteSession, RemoteSessionState } from '../../../shared/device/remote-frames';
import type { RemoteClient } from './remote-client';
import { el } from '../dom';

// The sessions of the remote view, newest first, each with its state; a row opens to the
// session's newest messages (remote_read) and a box for a short message (remote_message). Rows
// are kept by session id between refreshes, so an open row and a half-typed message survive one.

const STATE_TEXT: Record<RemoteSessionState, string> = {
  running: 'Running',
  waiting: 'Waiting on you',
  done: 'Done',
  failed: 'Failed',
};
const CONVERSATION_LIMIT = 20;
/** PROTOCOL.md: a remote message is at most 2,000 characters. */
const MESSAGE_MAX_CHARS = 2000;

interface SessionRow {
  li: HTMLLIElement;
  head: HTMLButtonElement;
  badge: HTMLElement;
  name: HTMLElement;
  meta: HTMLElement;
  body: HTMLElement;
  conversation: HTMLOListElement;
  older: HTMLElement;
}

export class SessionList {
  private readonly rows = new Map<string, SessionRow>();

  constructor(
    private readonly list: HTMLElement,
    private readonly client: RemoteClient,
  ) {}

  clear(): void {
    this.list.replaceChildren();
    this.rows.clear();
  }

  /** Open conversations are read again (the desktop changed something). */
  refreshOpen(): void {
    for (const [id, row] of this.rows) if (!row.body.hidden) void this.loadConversation(id, row);
  }

  render(sessions: RemoteSession[]): void {
    const ids = new Set(sessions.map((s) => s.session_id));
    for (const [id, row] of this.rows) {
      if (!ids.has(id)) {
        row.li.remove();
        this.rows.delete(id);
      }
    }
    let previous: HTMLElement | null = null;
    for (const session of sessions) {
      let row = this.rows.get(session.session_id);
      if (!row) {
        row = this.sessionRow(session.session_id);
        this.rows.set(session.session_id, row);
      }
      row.li.dataset.state = session.state;
      row.badge.textContent = STATE_TEXT[session.state];
      row.name.textContent = session.title || 'Untitled session';
      row.meta.textContent = [
        session.project,
        session.waiting ? `${session.waiting} waiting` : '',
        ago(session.updated_at),
      ]
        .filter(Boolean)
        .join(' · ');
      if (previous) previous.after(row.li);
      else this.list.prepend(row.li);
      previous = row.li;
    }
    if (!sessions.length)
      this.list.replaceChildren(el('li', 'hint', 'No sessions on the desktop yet.'));
    else this.list.querySelector(':scope > li.hint')?.remove();
  }

  private sessionRow(id: string): SessionRow {
    const li = el('li', 'session');
    const head = el('button', 'session-head');
    head.type = 'button';
    head.setAttribute('aria-expanded', 'false');
    const badge = el('span', 'badge');
    const name = el('span', 'session-title');
    const meta = el('span', 'session-meta');
    head.append(badge, name, meta);
    const body = el('div', 'session-body');
    body.hidden = true;
    const conversation = el('ol', 'conversation');
    conversation.setAttribute('aria-label', 'Newest messages');
    const older = el('p', 'hint', 'Older messages are on the desktop.');
    older.hidden = true;
    const form = el('form', 'message');
    const box = el('textarea');
    box.maxLength = MESSAGE_MAX_CHARS;
    box.rows = 2;
    box.placeholder = 'A short message to this session';
    box.setAttribute('aria-label', 'Message to this session');
    const send = el('button', undefined, 'Send');
    send.type = 'submit';
    const status = el('p', 'item-status');
    status.setAttribute('role', 'status');
    form.append(box, send, status);
    body.append(conversation, older, form);
    li.append(head, body);
    const row = { li, head, badge, name, meta, body, conversation, older };

    head.addEventListener('click', () => {
      body.hidden = !body.hidden;
      head.setAttribute('aria-expanded', String(!body.hidden));
      if (!body.hidden) void this.loadConversation(id, row);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = box.value.trim();
      if (!text) return;
      send.disabled = true;
      status.textContent = 'Sending…';
      void this.client.request('remote_message', { session_id: id, text }).then((out) => {
        status.textContent = out.ok ? 'Sent.' : `Not sent: ${out.message}`;
        status.dataset.tone = out.ok ? 'ok' : 'bad';
        if (out.ok) box.value = '';
        send.disabled = false;
        void this.loadConversation(id, row);
      });
    });
    return row;
  }

  private async loadConversation(id: string, row: SessionRow): Promise<void> {
    const conversation = await this.client.read(id, CONVERSATION_LIMIT);
    if ('error' in conversation) {
      row.conversation.replaceChildren(
        el('li', 'hint', `Could not read it: ${conversation.error}`),
      );
      return;
    }
    row.older.hidden = !conversation.more;
    row.conversation.replaceChildren(
      ...conversation.items.map((m) => {
        const li = el('li', `message ${m.role}`);
        const who =
          m.role === 'user'
            ? m.via
              ? `You (${m.via})`
              : 'You'
            : m.role === 'assistant'
              ? 'Agent'
              : 'Tool';
        li.append(el('span', 'who', who), el('span', 'text', m.truncated ? `${m.text}…` : m.text));
        return li;
      }),
    );
  }
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

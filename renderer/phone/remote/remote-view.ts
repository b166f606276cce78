import type {
  RemoteHostFrame,
  RemoteItem,
  RemoteSession,
  RemoteSessionState,
} from '../../../shared/device/remote-frames';
import { itemCard, itemKey, type ActResult, type CardAction } from './item-cards';
import type { RemoteClient, RemoteSnapshot } from './remote-client';

// The remote view, the first screen of a phone with the remote right: what waits on the person
// (each item in full, with its buttons), then the sessions with their state; a session opens to
// its newest messages and a box for a short message. Cards are kept by key between refreshes, so
// a refresh never throws away a half-typed answer. `clear` removes every remote item at once
// (the right was revoked); `setStale` greys them out while the socket is down.

const STATE_TEXT: Record<RemoteSessionState, string> = {
  running: 'Running',
  waiting: 'Waiting on you',
  done: 'Done',
  failed: 'Failed',
};
const VIBRATION_MS = [200, 100, 200];
const PAGE_TITLE = 'Mewbo phone';
const CONVERSATION_LIMIT = 20;
/** How long a card decided on this phone stays, with its outcome, after it left the list. */
const DECIDED_LINGER_MS = 3000;
const MESSAGE_MAX_CHARS = 2000;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

export interface RemoteViewParts {
  section: HTMLElement;
  title: HTMLElement;
  empty: HTMLElement;
  items: HTMLElement;
  more: HTMLElement;
  sessions: HTMLElement;
  notifyGrant: HTMLButtonElement;
}

export interface RemoteViewDeps {
  client: RemoteClient;
  canNotify(): boolean;
  askToNotify(): Promise<void>;
}

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

export class RemoteView {
  private readonly cards = new Map<string, HTMLElement>();
  private readonly rows = new Map<string, SessionRow>();

  constructor(
    private readonly ui: RemoteViewParts,
    private readonly deps: RemoteViewDeps,
  ) {
    ui.notifyGrant.addEventListener(
      'click',
      () => void deps.askToNotify().then(() => this.updateNotifyGrant()),
    );
  }

  /** The right is on: show the view (items arrive with the first snapshot). */
  show(): void {
    this.ui.section.hidden = false;
    this.setStale(false);
    this.updateNotifyGrant();
  }

  /** The right ended: every remote item leaves the page now. Whether anything was shown. */
  clear(): boolean {
    const shown = !this.ui.section.hidden;
    this.ui.section.hidden = true;
    this.ui.items.replaceChildren();
    this.ui.sessions.replaceChildren();
    this.cards.clear();
    this.rows.clear();
    this.ui.more.hidden = true;
    this.ui.empty.hidden = true;
    document.title = PAGE_TITLE;
    return shown;
  }

  /** The socket is down: keep what was shown, but nothing can be decided until it is back. */
  setStale(stale: boolean): void {
    this.ui.section.dataset.stale = stale ? 'true' : 'false';
    this.ui.items.inert = stale;
    this.ui.sessions.inert = stale;
  }

  render(snapshot: RemoteSnapshot): void {
    this.renderItems(snapshot.items, snapshot.total);
    this.renderSessions(snapshot.sessions);
  }

  /** The desktop changed something: open conversations are read again. */
  refreshOpen(): void {
    for (const [id, row] of this.rows) if (!row.body.hidden) void this.loadConversation(id, row);
  }

  /** A session started waiting: a notification and a vibration, where the browser permits. */
  alert(frame: Extract<RemoteHostFrame, { type: 'remote_notify' }>): void {
    if (typeof navigator.vibrate === 'function') navigator.vibrate(VIBRATION_MS);
    if (!this.deps.canNotify()) return;
    try {
      const note = new Notification(frame.title, {
        body: `${frame.session_title}: ${frame.body}`,
        tag: frame.item_id,
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // Chrome on Android shows notifications only from a service worker: the vibration stays.
    }
  }

  private updateNotifyGrant(): void {
    this.ui.notifyGrant.hidden =
      this.deps.canNotify() ||
      typeof Notification !== 'function' ||
      Notification.permission === 'denied';
  }

  private renderItems(items: RemoteItem[], total: number): void {
    const keys = new Set(items.map(itemKey));
    for (const [key, card] of this.cards) {
      if (keys.has(key)) continue;
      this.cards.delete(key);
      // Decided here: the person sees "Approved" before the card goes (it left the list at once).
      if (card.dataset.decided === 'true') setTimeout(() => card.remove(), DECIDED_LINGER_MS);
      else card.remove();
    }
    // Oldest first, as the desktop sends them; cards already shown keep their place and input.
    let previous: HTMLElement | null = null;
    for (const item of items) {
      const key = itemKey(item);
      let card = this.cards.get(key);
      if (!card) {
        card = itemCard(item, { act: (action) => this.act(item, action) });
        card.dataset.key = key;
        this.cards.set(key, card);
      }
      if (previous) previous.after(card);
      else this.ui.items.prepend(card);
      previous = card;
    }
    const count = items.length;
    this.ui.title.textContent = count ? `Waiting on you (${total})` : 'Waiting on you';
    // The tab's title says it too, for a phone browser showing its tab list.
    document.title = total ? `(${total}) ${PAGE_TITLE}` : PAGE_TITLE;
    this.ui.empty.hidden = total > 0;
    this.ui.more.hidden = total <= count;
    this.ui.more.textContent = `${total - count} more waiting item(s) are too large for the phone: see the desktop.`;
  }

  private async act(item: RemoteItem, action: CardAction): Promise<ActResult> {
    const client = this.deps.client;
    const outcome =
      action.kind === 'decide' && item.kind === 'approval'
        ? await client.request('remote_decide', {
            session_id: item.session_id,
            approval_id: item.approval_id,
            hash: item.hash,
            decision: action.decision,
            ...(action.reason ? { reason: action.reason } : {}),
          })
        : action.kind === 'answer' && item.kind === 'question'
          ? await client.request('remote_answer', {
              session_id: item.session_id,
              question_id: item.question_id,
              answers: action.answers,
              ...(action.notes ? { notes: action.notes } : {}),
            })
          : ({ ok: false, code: 'invalid', message: 'not possible for this item' } as const);
    void client.refresh();
    if (outcome.ok) {
      const done =
        action.kind === 'answer'
          ? 'Answered. The agent continues.'
          : action.decision === 'allow'
            ? 'Approved. The agent continues.'
            : 'Denied. The agent was told.';
      return { ok: true, done };
    }
    const why: Record<string, string> = {
      stale: 'This approval changed on the desktop; the list was refreshed.',
      already_decided: 'Already decided (on the desktop or another phone).',
      already_answered: 'Already answered (on the desktop or another phone).',
      not_found: 'This is no longer waiting.',
      too_large: 'Too large to approve from the phone: decide on the desktop.',
      rate_limited: 'Too many decisions at once: wait a moment and try again.',
    };
    return { ok: false, message: why[outcome.code] ?? `Not sent: ${outcome.message}` };
  }

  private renderSessions(sessions: RemoteSession[]): void {
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
      else this.ui.sessions.prepend(row.li);
      previous = row.li;
    }
    if (!sessions.length)
      this.ui.sessions.replaceChildren(el('li', 'hint', 'No sessions on the desktop yet.'));
    else this.ui.sessions.querySelector(':scope > li.hint')?.remove();
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
      void this.deps.client.request('remote_message', { session_id: id, text }).then((out) => {
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
    const conversation = await this.deps.client.read(id, CONVERSATION_LIMIT);
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

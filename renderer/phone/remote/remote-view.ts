import type { RemoteHostFrame, RemoteItem } from '../../../shared/device/remote-frames';
import { itemCard, itemKey, type ActResult, type CardAction } from './item-cards';
import type { RemoteClient, RemoteSnapshot } from './remote-client';
import { SessionList } from './session-list';

// The remote view, the first screen of a phone with the remote right: what waits on the person
// (each item in full, with its buttons), then the sessions with their state (session-list.ts).
// Cards are kept by key between refreshes, so a refresh never throws away a half-typed answer.
// `clear` removes every remote item at once (the right was revoked); `setStale` greys them out
// while the socket is down.

const VIBRATION_MS = [200, 100, 200];
const PAGE_TITLE = 'Mewbo phone';
/** How long a card decided on this phone stays, with its outcome, after it left the list. */
const DECIDED_LINGER_MS = 3000;
const ELICIT_DONE = {
  accept: 'Sent to the server.',
  decline: 'Declined. The server was told no.',
  cancel: 'Cancelled.',
} as const;

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

export class RemoteView {
  private readonly cards = new Map<string, HTMLElement>();
  private readonly sessions: SessionList;

  constructor(
    private readonly ui: RemoteViewParts,
    private readonly deps: RemoteViewDeps,
  ) {
    this.sessions = new SessionList(ui.sessions, deps.client);
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
    this.sessions.clear();
    this.cards.clear();
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
    this.sessions.render(snapshot.sessions);
  }

  /** The desktop changed something: open conversations are read again. */
  refreshOpen(): void {
    this.sessions.refreshOpen();
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
            ...(action.option ? { option: action.option } : {}),
          })
        : action.kind === 'answer' && item.kind === 'question'
          ? await client.request('remote_answer', {
              session_id: item.session_id,
              question_id: item.question_id,
              answers: action.answers,
              ...(action.notes ? { notes: action.notes } : {}),
            })
          : action.kind === 'elicit' && item.kind === 'elicitation'
            ? await client.request('remote_elicit', {
                session_id: item.session_id,
                elicitation_id: item.elicitation_id,
                action: action.action,
                ...(action.content ? { content: action.content } : {}),
              })
            : ({ ok: false, code: 'invalid', message: 'not possible for this item' } as const);
    void client.refresh();
    if (outcome.ok) {
      const done =
        action.kind === 'elicit'
          ? ELICIT_DONE[action.action]
          : action.kind === 'answer'
            ? 'Answered. The agent continues.'
            : action.name
              ? `Sent “${action.name}”. The agent was told.`
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
}

import type {
  RemoteHostFrame,
  RemoteItem,
  RemoteMessageItem,
  RemoteSession,
  RemoteSessionState,
} from '../../../shared/device/remote-frames';

// The page's side of the remote frames (PROTOCOL.md "Remote frames", version 1): requests matched
// to replies by req_id, the sessions and waiting items refetched whenever the desktop says they
// changed, and everything dropped at once when the remote right ends. A reply that arrives after
// the right ended belongs to a finished generation and is ignored, so a revoked phone never shows
// an item again from a request it sent before.

export const REMOTE_VERSION = 1;
/** A reply slower than this is a lost one (the socket died): the request fails with `timeout`. */
const REPLY_TIMEOUT_MS = 15_000;

export interface RemoteSnapshot {
  sessions: RemoteSession[];
  items: RemoteItem[];
  /** Waiting items in all, including any left out of the frame. */
  total: number;
}

export type RemoteOutcome =
  { ok: true; frame: RemoteHostFrame } | { ok: false; code: string; message: string };

export interface Conversation {
  state: RemoteSessionState;
  more: boolean;
  items: RemoteMessageItem[];
}

export interface RemoteListener {
  onSnapshot(snapshot: RemoteSnapshot): void;
  onNotify(frame: Extract<RemoteHostFrame, { type: 'remote_notify' }>): void;
  /** Any change on the desktop (a refetch of open conversations may follow). */
  onChanged(): void;
}

interface Waiter {
  resolve(outcome: RemoteOutcome): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RemoteClient {
  private readonly waiters = new Map<string, Waiter>();
  private nextId = 0;
  /** Bumped when the right starts or ends: replies of an older generation are dropped. */
  private generation = 0;
  private active = false;
  private refreshing = false;
  private refreshAgain = false;

  constructor(
    private readonly send: (frame: object) => boolean,
    private readonly listener: RemoteListener,
  ) {}

  get isActive(): boolean {
    return this.active;
  }

  /** The right is on and the socket is up (welcome, or a reconnect): fetch everything afresh. */
  start(): void {
    if (!this.active) this.generation++;
    this.active = true;
    void this.refresh();
  }

  /** The right ended (or the socket closed): fail what is in flight, forget the snapshot. */
  stop(): void {
    this.active = false;
    this.generation++;
    for (const [id, waiter] of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve({ ok: false, code: 'ended', message: 'the connection to the desktop ended' });
      this.waiters.delete(id);
    }
  }

  handle(frame: RemoteHostFrame): void {
    if (frame.type === 'remote_changed') {
      this.listener.onChanged();
      return void this.refresh();
    }
    if (frame.type === 'remote_notify') {
      if (!this.active) return;
      this.listener.onNotify(frame);
      return void this.refresh();
    }
    const waiter = frame.req_id === null ? undefined : this.waiters.get(frame.req_id);
    if (!waiter) return;
    this.waiters.delete(frame.req_id!);
    clearTimeout(waiter.timer);
    waiter.resolve(
      frame.type === 'remote_error'
        ? { ok: false, code: frame.code, message: frame.message }
        : { ok: true, frame },
    );
  }

  request(type: string, body: Record<string, unknown> = {}): Promise<RemoteOutcome> {
    const req_id = `p${++this.nextId}`;
    if (!this.active) {
      return Promise.resolve({ ok: false, code: 'ended', message: 'remote access is off' });
    }
    if (!this.send({ type, v: REMOTE_VERSION, req_id, ...body })) {
      return Promise.resolve({
        ok: false,
        code: 'offline',
        message: 'not connected to the desktop right now',
      });
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(req_id);
        resolve({ ok: false, code: 'timeout', message: 'the desktop did not answer' });
      }, REPLY_TIMEOUT_MS);
      this.waiters.set(req_id, { resolve, timer });
    });
  }

  /** Sessions and waiting items, refetched; calls that overlap are folded into one more fetch. */
  async refresh(): Promise<void> {
    if (!this.active) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.refreshAgain = false;
        const generation = this.generation;
        const [pending, sessions] = await Promise.all([
          this.request('remote_pending'),
          this.request('remote_sessions'),
        ]);
        if (generation !== this.generation || !this.active) return;
        if (
          pending.ok &&
          pending.frame.type === 'remote_pending' &&
          sessions.ok &&
          sessions.frame.type === 'remote_sessions'
        ) {
          this.listener.onSnapshot({
            sessions: sessions.frame.sessions,
            items: pending.frame.items,
            total: pending.frame.total,
          });
        }
      } while (this.refreshAgain && this.active);
    } finally {
      this.refreshing = false;
    }
  }

  async read(sessionId: string, limit = 20): Promise<Conversation | { error: string }> {
    const generation = this.generation;
    const out = await this.request('remote_read', { session_id: sessionId, limit });
    if (generation !== this.generation) return { error: 'remote access ended' };
    if (!out.ok) return { error: out.message };
    if (out.frame.type !== 'remote_conversation') return { error: 'unexpected reply' };
    return { state: out.frame.state, more: out.frame.more, items: out.frame.items };
  }
}

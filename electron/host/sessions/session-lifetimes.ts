import type { Disposable } from '../lifecycle/disposable';
import { toDisposable } from '../lifecycle/disposable';
import type { Session } from './session';

// When a loaded session lets go of its memory and closes. A session is kept whole while someone
// views it (a `session:<id>` subscriber) or it runs something (a run, a waiting question, a live
// shell). Once neither holds, its events leave memory at once (the log reads them back if asked)
// and, after a quiet period with nobody coming back, the session is closed: its owner disposes
// what it held (agent state, MCP leases, its shells' managers) and a later request reopens it.

export interface SessionLifetimesOptions {
  /** How long an unviewed, idle session stays loaded before it is closed. */
  quietMs: number;
  /** True while the session runs something that must keep it open. */
  busy: (session: Session) => boolean;
  /** Closes the session (it re-checks that nobody came back meanwhile). */
  close: (id: string) => Promise<void>;
}

export class SessionLifetimes implements Disposable {
  private readonly viewers = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private disposed = false;

  constructor(private readonly opts: SessionLifetimesOptions) {}

  /** Someone views `id` until the returned disposable is disposed. */
  view(id: string, onLeave: (id: string) => void): Disposable {
    this.viewers.set(id, (this.viewers.get(id) ?? 0) + 1);
    this.cancel(id);
    return toDisposable(() => {
      const left = (this.viewers.get(id) ?? 1) - 1;
      if (left > 0) this.viewers.set(id, left);
      else {
        this.viewers.delete(id);
        onLeave(id);
      }
    });
  }

  isViewed(id: string): boolean {
    return (this.viewers.get(id) ?? 0) > 0;
  }

  /** Whether the session may let go now: nobody views it and it runs nothing. */
  idle(session: Session): boolean {
    return !this.isViewed(session.id) && !this.opts.busy(session);
  }

  /** Called whenever a reason to stay open may have ended: releases and arms the close timer. */
  settle(session: Session): void {
    if (this.disposed || !this.idle(session)) return;
    session.releaseEvents();
    this.cancel(session.id);
    const timer = setTimeout(() => {
      this.timers.delete(session.id);
      void this.opts
        .close(session.id)
        .catch((err: unknown) => console.error(`[sessions] closing ${session.id} failed`, err));
    }, this.opts.quietMs);
    timer.unref();
    this.timers.set(session.id, timer);
  }

  cancel(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}

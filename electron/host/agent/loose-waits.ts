import type { Session } from '../sessions/session';
import { lastRunState } from './session-state';

// Waits on the user that no call of a run made: a connection of the session's shell held until the
// user approves its new destination (issue #25 part 1). Such a wait outlives runs: a background
// shell's connection can ask after the model's turn ended, or still be held when it ends. While a
// run is live it counts with the run's own waits (the run writes `waiting`, then `running`); with
// no run the session shows `waiting` until its last such wait ends (then `idle`). A run ending with
// one still open hands it back to the session after the run's last state, so the sidebar and the
// phone (which list sessions waiting for the user) show the session waiting for as long as its
// card is open; a run starting meanwhile takes the session's over.

/** What of a live run the ledger uses: its wait count, once its context is made. */
export interface WaitingRun {
  beginWait?: (reason: string) => () => void;
}

interface LooseWait {
  readonly reason: string;
  /** The run counting it; undefined: the session itself (no run, or one not yet started). */
  owner: WaitingRun | undefined;
  /** Ends the wait where it is counted now. */
  end: () => void;
}

export class LooseWaits {
  /** The open waits per session id. */
  private readonly open = new Map<string, Set<LooseWait>>();

  /** `liveRun`: the session's run now, if any. */
  constructor(private readonly liveRun: (sessionId: string) => WaitingRun | undefined) {}

  /** Shows the session waiting on the user until the returned function is called. */
  begin(session: Session, reason: string): () => void {
    let waits = this.open.get(session.id);
    if (!waits) this.open.set(session.id, (waits = new Set()));
    const wait: LooseWait = { reason, owner: undefined, end: () => {} };
    waits.add(wait);
    this.place(session, wait);
    if (!wait.owner && !this.liveRun(session.id) && this.sessionCounted(session.id) === 1)
      this.append(session, 'waiting', reason);
    return () => {
      if (!waits.delete(wait)) return;
      if (!waits.size && this.open.get(session.id) === waits) this.open.delete(session.id);
      wait.end();
    };
  }

  /** The session's new run can count waits now: it takes over the ones the session counted. */
  runStarted(session: Session): void {
    for (const wait of this.open.get(session.id) ?? []) if (!wait.owner) this.place(session, wait);
  }

  /**
   * A run wrote its last state: the waits it counted and left open are the session's (or the next
   * run's) now, and a session left with any shows `waiting` again after that state.
   */
  runEnded(session: Session, run: WaitingRun): void {
    const waits = [...(this.open.get(session.id) ?? [])];
    for (const wait of waits) if (wait.owner === run) this.place(session, wait);
    const first = waits.find((w) => !w.owner);
    if (first && !this.liveRun(session.id) && lastRunState(session.events())?.state !== 'waiting')
      this.append(session, 'waiting', first.reason);
  }

  /** The session is deleted: nothing it waited for can be shown any more. */
  forget(sessionId: string): void {
    this.open.delete(sessionId);
  }

  /** Counts `wait` with the live run if it can count waits, else with the session. */
  private place(session: Session, wait: LooseWait): void {
    const run = this.liveRun(session.id);
    if (run?.beginWait) {
      const end = run.beginWait(wait.reason);
      wait.owner = run;
      // A run that ended meanwhile wrote its last state: this end must not write `running` after it.
      wait.end = () => {
        if (this.liveRun(session.id) === run) end();
      };
      return;
    }
    wait.owner = undefined;
    wait.end = () => {
      if (
        this.sessionCounted(session.id) === 0 &&
        !this.liveRun(session.id) &&
        lastRunState(session.events())?.state === 'waiting'
      )
        this.append(session, 'idle', 'the decision was made');
    };
  }

  private sessionCounted(sessionId: string): number {
    let n = 0;
    for (const wait of this.open.get(sessionId) ?? []) if (!wait.owner) n++;
    return n;
  }

  private append(session: Session, state: 'waiting' | 'idle', reason: string): void {
    void session.append({ type: 'run_state', state, reason }).catch(() => {});
  }
}

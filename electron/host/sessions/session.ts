import { Emitter, type Event } from '../lifecycle/emitter';
import { DisposableStore, toDisposable, type Disposable } from '../lifecycle/disposable';
import { EventLog } from '../store/event-log';
import { SnapshotBuilder } from '../store/snapshot-builder';
import type { SessionSnapshot } from '../../../shared/protocol/session-snapshot';
import type {
  SessionEvent,
  SessionEventBody,
  TransientEvent,
} from '../../../shared/protocol/events';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';

export interface SessionMeta {
  id: string;
  title: string;
  project: string | null;
  root: string | null;
  created_at: number;
  /** The git worktree made for the session (its root is in it); absent: it works in its project. */
  worktree?: SessionWorktree;
  /** The external ACP agent its turns run on (`agents.NAME`); absent: the app's own agent. */
  agent?: string;
  /** The project is on an SSH host: its canonical ssh:// URL (`root` is the path there). */
  remote?: string;
  event_count?: number;
  /**
   * The settled state a session had when it was closed for being quiet (failed, stopped or idle),
   * so the list shows a failed run as failed without loading the session.
   */
  run_state?: 'idle' | 'stopped' | 'failed';
}

export type SessionStreamItem = SessionEvent | TransientEvent;

/** One open session: its durable log, live fan-out, and the resources tied to its lifetime. */
export class Session implements Disposable {
  private readonly transient = new Emitter<TransientEvent>();
  /** Shells, runs, watchers: everything that must die with the session. */
  readonly resources = new DisposableStore();

  readonly onTransient: Event<TransientEvent> = this.transient.event;

  private constructor(
    public meta: SessionMeta,
    private readonly log: EventLog,
    private readonly appended: Emitter<SessionEvent>,
    private readonly state: SnapshotBuilder,
  ) {}

  get onDidAppend(): Event<SessionEvent> {
    return this.appended.event;
  }

  static async open(meta: SessionMeta, file: string): Promise<Session> {
    const appended = new Emitter<SessionEvent>();
    const state = new SnapshotBuilder();
    const log = await EventLog.open(file, (e) => {
      // Folded before anyone hears of the event, so a listener reads the state that includes it.
      state.apply(e);
      appended.fire(e);
    });
    for (const e of log.all()) state.apply(e);
    return new Session(meta, log, appended, state);
  }

  get id(): string {
    return this.meta.id;
  }

  /** One past the last seq (a cursor), which is more than the event count if the log has gaps. */
  get length(): number {
    return this.log.length;
  }

  /** What recovery could not read when the log was opened ("N events could not be read"), or null. */
  get notice(): string | null {
    return this.log.damage;
  }

  events(from = 0, to?: number): readonly SessionEvent[] {
    return this.log.slice(from, to);
  }

  /** Resolves once the event is on disk; subscribers see it in seq order. */
  append(body: SessionEventBody): Promise<SessionEvent> {
    return this.log.append(body);
  }

  /** Live-only output (streamed assistant text): never stored. */
  emitTransient(event: TransientEvent): void {
    this.transient.fire(event);
  }

  /**
   * Replay from `cursor`, then live, with no gap and no duplicate: replay and listener registration
   * happen in the same synchronous turn, and the log only grows by firing `appended` after push.
   */
  subscribe(cursor: number, sink: (item: SessionStreamItem) => void): Disposable {
    const store = new DisposableStore();
    for (const e of this.log.slice(Math.max(0, cursor))) sink(e);
    let next = this.log.length;
    store.add(
      this.appended.event((e) => {
        if (e.seq < next) return;
        next = e.seq + 1;
        sink(e);
      }),
    );
    store.add(this.transient.event(sink));
    return toDisposable(() => store.dispose());
  }

  runState(): SessionSummary['run_state'] {
    return this.state.currentRunState;
  }

  /** The current state (mode, todos, open questions, shells) as of the newest event. */
  snapshot(): SessionSnapshot {
    return this.state.snapshot();
  }

  /** Drops the events from memory (read back from the log when next asked for). */
  releaseEvents(): void {
    this.log.release();
  }

  get holdsEvents(): boolean {
    return this.log.holdsEvents;
  }

  summary(): SessionSummary {
    return {
      id: this.meta.id,
      title: this.meta.title,
      project: this.meta.project,
      root: this.meta.root,
      created_at: this.meta.created_at,
      updated_at: this.log.lastTs ?? this.meta.created_at,
      event_count: this.log.length,
      run_state: this.runState(),
      ...(this.meta.worktree ? { worktree: this.meta.worktree } : {}),
      ...(this.meta.remote ? { remote: this.meta.remote } : {}),
      ...(this.meta.agent ? { agent: this.meta.agent } : {}),
      ...(this.log.damage ? { notice: this.log.damage } : {}),
    };
  }

  async dispose(): Promise<void> {
    await this.resources.dispose();
    this.appended.dispose();
    this.transient.dispose();
    await this.log.close();
  }
}

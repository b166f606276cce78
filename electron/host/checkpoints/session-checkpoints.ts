import type { SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import { userTurns, visibleEvents } from '../../../shared/protocol/rewinds';
import type {
  RewindMode,
  RewindPreview,
  RewindPreviewFile,
} from '../../../shared/protocol/commands/checkpoints';
import { HostError } from '../rpc/host-error';
import type { Session } from '../sessions/session';
import type { CheckpointSite } from './checkpoint-site';
import type { TreeChange } from './checkpoint-store';

// Checkpoints of one session's turns and the rewinds over them. A turn that may write (an edit, a
// shell, a sub-agent) gets a `before` snapshot just before its first write and an `after` one when
// its run ends; a rewind restores the `before` snapshot of the first turn that wrote at or after
// the chosen message, and first snapshots the tree as it is, so the rewind itself can be undone.

export interface SessionCheckpointsOptions {
  /** Where the checkpoints of the session's project at `root` live (here, or its SSH host). */
  siteOf(session: Session, root: string): CheckpointSite;
  /** Whether a run is live in the session (a rewind waits for it to end). */
  isRunning(sessionId: string): boolean;
  /** The conversation went back: the agent forgets what it read (its context no longer has it). */
  conversationRewound(session: Session): void;
  enabled(): boolean;
}

export function latestTurnSeq(events: readonly SessionEvent[]): number | null {
  const turns = userTurns(events);
  return turns.length ? turns[turns.length - 1]!.seq : null;
}

/** Whether the turn at `turn` has its `before` snapshot (it follows the turn's message). */
export function beforeTaken(events: readonly SessionEvent[], turn: number): boolean {
  return events.some((e) => e.type === 'checkpoint' && e.turn_seq === turn && e.phase === 'before');
}

/**
 * The session's latest turn and whether it has its `before` snapshot, following the log: every
 * write call asks, and scanning the log each time made a long run's writes cost O(history). A new
 * user message starts a turn; only a rewind (which may hide messages) reads the whole log again.
 */
export class TurnState {
  private next = 0;
  turn: number | null = null;
  taken = false;

  constructor(
    private readonly log: {
      readonly length: number;
      events(from?: number): readonly SessionEvent[];
    },
  ) {}

  sync(): this {
    const length = this.log.length;
    if (length === this.next) return this;
    const fresh = this.log.events(this.next);
    this.next = length;
    for (const e of fresh) {
      if (e.type === 'rewind') return this.rebuild();
      if (e.type === 'user_message') {
        this.turn = e.seq;
        this.taken = false;
      } else if (e.type === 'checkpoint' && e.phase === 'before' && e.turn_seq === this.turn)
        this.taken = true;
    }
    return this;
  }

  private rebuild(): this {
    const events = this.log.events();
    this.next = this.log.length;
    this.turn = latestTurnSeq(events);
    this.taken = this.turn !== null && beforeTaken(this.log.events(this.turn), this.turn);
    return this;
  }
}

/** The last snapshot the app took of this root: the state the agent last left it in. */
function latestKnownCommit(events: readonly SessionEvent[], root: string): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'checkpoint' && e.root === root) return e.commit;
    if (e.type === 'rewind' && e.root === root && e.after_commit) return e.after_commit;
  }
  return null;
}

export class SessionCheckpoints {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Sessions that may have written since their last snapshot. */
  private readonly dirty = new Set<string>();
  private readonly turns = new WeakMap<Session, TurnState>();

  constructor(private readonly opts: SessionCheckpointsOptions) {}

  /** Before a call that may write: the turn's `before` snapshot, once per turn. */
  beforeWrite(session: Session): Promise<void> {
    const root = session.meta.root;
    if (!root || !this.opts.enabled()) return Promise.resolve();
    let state = this.turns.get(session);
    if (!state) this.turns.set(session, (state = new TurnState(session)));
    const { turn, taken } = state.sync();
    if (turn === null) return Promise.resolve();
    this.dirty.add(session.id);
    const key = `${session.id}:${turn}`;
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    if (taken) return Promise.resolve();
    const p = this.take(session, root, turn, 'before').finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** When a turn ends: the `after` snapshot, if anything may have written since the last one. */
  async afterRun(session: Session): Promise<void> {
    const root = session.meta.root;
    if (!root || !this.opts.enabled() || !this.dirty.has(session.id)) return;
    const turn = latestTurnSeq(session.events());
    if (turn === null) return;
    await this.inFlight.get(`${session.id}:${turn}`);
    this.dirty.delete(session.id);
    await this.take(session, root, turn, 'after');
  }

  private async take(
    session: Session,
    root: string,
    turn: number,
    phase: 'before' | 'after',
  ): Promise<void> {
    try {
      const snap = await this.opts
        .siteOf(session, root)
        .snapshot(`${phase} turn at seq ${turn} of ${session.id}`);
      await session.append({
        type: 'checkpoint',
        turn_seq: turn,
        phase,
        root,
        commit: snap.commit,
        large_files: snap.large,
      });
    } catch (err) {
      await session
        .append({
          type: 'error',
          code: 'checkpoint_failed',
          message: `Could not snapshot the project's files, so this turn cannot be rewound: ${(err as Error).message}`,
        })
        .catch(() => undefined);
    }
  }

  private async rootOf(session: Session): Promise<{ root: string; project: CheckpointSite }> {
    const root = session.meta.root;
    if (!root)
      throw new HostError('no_project', 'this session has no project, so no files to rewind');
    const project = this.opts.siteOf(session, root);
    await project.ensureRoot();
    return { root, project };
  }

  private userMessage(session: Session, toSeq: number): SessionEventOf<'user_message'> {
    const target = userTurns(session.events()).find((e) => e.seq === toSeq);
    if (!target)
      throw new HostError(
        'bad_turn',
        `event ${toSeq} is not a user message of this conversation (it may be rewound already)`,
      );
    return target;
  }

  /** The snapshot a rewind to `toSeq` restores: the first `before` at or after it; null if none. */
  private targetCommit(session: Session, toSeq: number, root: string): string | null {
    for (const e of session.events(toSeq)) {
      if (e.type === 'checkpoint' && e.phase === 'before' && e.root === root) return e.commit;
    }
    return null;
  }

  private async plan(session: Session, toSeq: number) {
    const { root, project } = await this.rootOf(session);
    const now = await project.snapshot(`before a rewind of ${session.id}`);
    const target = this.targetCommit(session, toSeq, root);
    const known = latestKnownCommit(session.events(), root);
    const userChanged = new Set(
      known && known !== now.commit
        ? (await project.diff(known, now.commit)).map((c) => c.path)
        : [],
    );
    const nowLarge = new Set(now.large.map((f) => f.path));
    const targetLarge = new Set<string>();
    for (const e of session.events(toSeq)) {
      if (e.type === 'checkpoint' && e.commit === target)
        for (const f of e.large_files) targetLarge.add(f.path);
    }
    let changes: TreeChange[] = [];
    if (target) {
      await project.verify(target);
      changes = await project.diff(now.commit, target);
    }
    const notStored = changes
      .filter((c) => nowLarge.has(c.path) || targetLarge.has(c.path))
      .map((c) => c.path);
    const files: RewindPreviewFile[] = changes
      .filter((c) => !notStored.includes(c.path))
      .map((c) => ({
        path: c.path,
        action: c.status === 'A' ? 'create' : c.status === 'D' ? 'delete' : 'restore',
        user_changed: userChanged.has(c.path),
      }));
    return { root, project, now, target, changes, files, notStored };
  }

  async preview(session: Session, toSeq: number): Promise<RewindPreview> {
    this.userMessage(session, toSeq);
    const events = session.events();
    const visible = visibleEvents(events);
    const hidden = visible.filter((e) => e.seq >= toSeq).length;
    const p = await this.plan(session, toSeq);
    return {
      to_seq: toSeq,
      root: p.root,
      has_checkpoint: p.target !== null,
      files: p.files,
      not_stored: p.notStored,
      conversation_events: hidden,
    };
  }

  async rewind(
    session: Session,
    req: { toSeq: number; mode: RewindMode; include?: string[] },
  ): Promise<SessionEventOf<'rewind'>> {
    if (this.opts.isRunning(session.id))
      throw new HostError('running', 'stop the run before rewinding');
    this.userMessage(session, req.toSeq);
    let root: string | null = session.meta.root;
    let before: string | null = null;
    let after: string | null = null;
    const done = { restored: [] as string[], created: [] as string[], deleted: [] as string[] };
    let kept: string[] = [];
    let notStored: string[] = [];
    if (req.mode !== 'conversation') {
      const p = await this.plan(session, req.toSeq);
      root = p.root;
      before = p.now.commit;
      const include = new Set(req.include ?? []);
      const chosen = p.files.filter((f) => !f.user_changed || include.has(f.path));
      kept = p.files.filter((f) => !chosen.includes(f)).map((f) => f.path);
      notStored = p.notStored;
      await p.project.restore(p.changes, new Set(chosen.map((f) => f.path)));
      for (const f of chosen) {
        const list =
          f.action === 'create'
            ? done.created
            : f.action === 'delete'
              ? done.deleted
              : done.restored;
        list.push(f.path);
      }
      after = (await p.project.snapshot(`after a rewind of ${session.id}`)).commit;
    }
    const event = await session.append({
      type: 'rewind',
      to_seq: req.toSeq,
      mode: req.mode,
      root,
      before_commit: before,
      after_commit: after,
      ...done,
      kept,
      not_stored: notStored,
    });
    if (req.mode !== 'files') this.opts.conversationRewound(session);
    return event as SessionEventOf<'rewind'>;
  }

  /** Undoes a rewind: its hidden conversation comes back and the files it changed go back. */
  async undo(session: Session, rewindSeq: number): Promise<SessionEventOf<'rewind'>> {
    if (this.opts.isRunning(session.id))
      throw new HostError('running', 'stop the run before undoing a rewind');
    const events = session.events();
    const r = events.find((e) => e.seq === rewindSeq);
    if (!r || r.type !== 'rewind' || r.undo_of !== undefined)
      throw new HostError('bad_rewind', `event ${rewindSeq} is not a rewind`);
    if (events.some((e) => e.type === 'rewind' && e.undo_of === rewindSeq))
      throw new HostError('bad_rewind', `the rewind at event ${rewindSeq} is already undone`);
    let before: string | null = null;
    let after: string | null = null;
    const touched = [...r.restored, ...r.created, ...r.deleted];
    const done = { restored: [] as string[], created: [] as string[], deleted: [] as string[] };
    if (r.mode !== 'conversation' && r.before_commit && touched.length) {
      const { project } = await this.rootOf(session);
      await project.verify(r.before_commit);
      const now = await project.snapshot(`before undoing a rewind of ${session.id}`);
      before = now.commit;
      const changes = await project.diff(now.commit, r.before_commit);
      await project.restore(changes, new Set(touched));
      for (const c of changes.filter((c) => touched.includes(c.path))) {
        (c.status === 'A' ? done.created : c.status === 'D' ? done.deleted : done.restored).push(
          c.path,
        );
      }
      after = (await project.snapshot(`after undoing a rewind of ${session.id}`)).commit;
    }
    const event = await session.append({
      type: 'rewind',
      to_seq: r.to_seq,
      mode: r.mode,
      undo_of: rewindSeq,
      root: r.root,
      before_commit: before,
      after_commit: after,
      ...done,
      kept: [],
      not_stored: [],
    });
    if (r.mode !== 'files') this.opts.conversationRewound(session);
    return event as SessionEventOf<'rewind'>;
  }
}

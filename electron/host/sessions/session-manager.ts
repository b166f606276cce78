import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Emitter, type Event } from '../lifecycle/emitter';
import { toDisposable, type Disposable } from '../lifecycle/disposable';
import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import { EventLogIndex, readTail } from '../store/event-index';
import { Session, type SessionMeta, type SessionStreamItem } from './session';
import { newSessionId, SESSION_ID_PATTERN } from './session-folders';
import { findInLog, searchLog, type SessionHit } from './session-search';
import { DEFAULT_SESSION_TITLE } from './session-title';
import type { SessionSummary, SessionsChange } from '../../../shared/protocol/session-summary';
import type { SessionEvent } from '../../../shared/protocol/events';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import type {
  SessionSnapshot,
  SessionSnapshotFrame,
} from '../../../shared/protocol/session-snapshot';
import { atomicWriteFile } from '../fs/atomic-write';
import { SessionLifetimes } from './session-lifetimes';
import { SESSION_QUIET_CLOSE_MS } from './constants';

const ID_PATTERN = SESSION_ID_PATTERN;
/** A log with more than this not indexed yet is opened from its end and indexed after the answer. */
const TAIL_FIRST_BYTES = 1024 * 1024;

function lastRunState(events: readonly SessionEvent[]): SessionSummary['run_state'] | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'run_state') return e.state;
  }
  return undefined;
}

/** What a client draws first: the state now and the newest events (`start` is the first seq). */
export interface SessionView {
  session: SessionSummary;
  snapshot: SessionSnapshot | null;
  events: SessionEvent[];
  start: number;
  next: number;
}

/** What a `session:<id>` topic carries: events, transient deltas, the snapshot after replay. */
export type SessionTopicItem = SessionStreamItem | SessionSnapshotFrame;

interface Watcher {
  cursor: number;
  sink: (item: SessionTopicItem) => void;
  attached: Disposable | null;
}

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
  readonly code = 'session_not_found';
  constructor(id: string) {
    super(`no session '${id}'`);
  }
}

export type { SessionsChange };

/**
 * Owns every session on disk under `dir`: one folder each with `events.jsonl` (the log) and
 * `meta.json` (the index entry: title, project, counts). Sessions open lazily; one nobody views
 * and that runs nothing lets go of its events at once and is closed after a quiet period
 * (session-lifetimes.ts), then reopened on demand.
 */
export class SessionManager implements Disposable {
  private readonly open = new Map<string, Promise<Session>>();
  /** Read side for sessions not loaded: windows, pages and replays come from the log's index. */
  private readonly indexes = new Map<string, Promise<EventLogIndex>>();
  /** Topic subscribers of sessions not loaded: attached to the session when it loads. */
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly changed = new Emitter<SessionsChange>();
  private readonly created = new Emitter<Session>();
  private readonly deleting = new Emitter<Session>();
  /** Sessions being closed: a load of the same id waits, so two logs never append to one file. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly lifetimes: SessionLifetimes;

  readonly onDidChange: Event<SessionsChange> = this.changed.event;
  /** A session was opened (created or loaded): owners attach per-session resources here. */
  readonly onDidOpen: Event<Session> = this.created.event;
  /** Fires before a session's files are removed; its resources are disposed right after. */
  readonly onWillDelete: Event<Session> = this.deleting.event;

  constructor(
    private readonly dir: string,
    private readonly opts: {
      tailFirstBytes?: number;
      /** How long an unviewed, idle session stays loaded (default SESSION_QUIET_CLOSE_MS). */
      quietMs?: number;
      /** What else keeps a session open beside its run (live shells); wired by the host. */
      busy?: (id: string) => boolean;
    } = {},
  ) {
    this.lifetimes = new SessionLifetimes({
      quietMs: opts.quietMs ?? SESSION_QUIET_CLOSE_MS,
      busy: (s) => {
        const state = s.runState();
        return state === 'running' || state === 'waiting' || (this.opts.busy?.(s.id) ?? false);
      },
      close: (id) => this.closeIfIdle(id),
    });
  }

  /** A reason to keep `id` open may have ended (a shell exited): let it go if nothing holds it. */
  settle(id: string): void {
    void this.open
      .get(id)
      ?.then((s) => this.lifetimes.settle(s))
      .catch(() => {});
  }

  /** Closes a loaded session nobody views and that runs nothing; it reopens on demand. */
  private async closeIfIdle(id: string): Promise<void> {
    const pending = this.open.get(id);
    if (!pending || this.closing.has(id)) return;
    const session = await pending;
    if (this.open.get(id) !== pending || !this.lifetimes.idle(session)) return;
    this.open.delete(id);
    const done = (async () => {
      const state = session.runState();
      await writeJsonAtomic(this.paths(id).meta, {
        ...session.meta,
        event_count: session.length,
        run_state: state === 'failed' || state === 'stopped' ? state : undefined,
      }).catch(() => {});
      await session.dispose();
    })().finally(() => this.closing.delete(id));
    this.closing.set(id, done);
    await done;
  }

  /** Whether `id` is loaded now (for tests and diagnostics). */
  isLoaded(id: string): boolean {
    return this.open.has(id);
  }

  private paths(id: string) {
    const folder = join(this.dir, id);
    return { folder, log: join(folder, 'events.jsonl'), meta: join(folder, 'meta.json') };
  }

  async create(
    opts: {
      title?: string;
      project?: string | null;
      root?: string | null;
      /** The git worktree made for the session (its root is in it). */
      worktree?: SessionWorktree;
      /** The external ACP agent its turns run on (checked against the config by the caller). */
      agent?: string;
      /** The project's ssh:// URL, when it is on an SSH host (`root` is the path there). */
      remote?: string;
    } = {},
  ): Promise<Session> {
    const id = newSessionId();
    const meta: SessionMeta = {
      id,
      title: opts.title?.trim() || DEFAULT_SESSION_TITLE,
      project: opts.project ?? null,
      root: opts.root ?? null,
      created_at: Date.now(),
      ...(opts.worktree ? { worktree: opts.worktree } : {}),
      ...(opts.agent ? { agent: opts.agent } : {}),
      ...(opts.remote ? { remote: opts.remote } : {}),
    };
    const p = this.paths(id);
    await mkdir(p.folder, { recursive: true });
    await writeJsonAtomic(p.meta, meta);
    const session = await this.load(id, meta);
    await session.append({
      type: 'session_created',
      title: meta.title,
      project: meta.project,
      root: meta.root,
      ...(meta.worktree ? { worktree: meta.worktree } : {}),
      ...(meta.agent ? { agent: meta.agent } : {}),
    });
    this.changed.fire({ type: 'upsert', session: session.summary() });
    return session;
  }

  /**
   * A new session whose log starts as `events` (a fork's prefix, an imported log), checked to be
   * a contiguous log from seq 0; the log is written in full before the session is listed.
   */
  async createFrom(
    opts: {
      title: string;
      project: string | null;
      root: string | null;
      worktree?: SessionWorktree;
    },
    events: readonly SessionEvent[],
  ): Promise<Session> {
    events.forEach((e, i) => {
      if (e.seq !== i) throw new Error(`event ${i} has seq ${e.seq}: the log is not contiguous`);
    });
    const id = newSessionId();
    const meta: SessionMeta = { id, ...opts, created_at: Date.now() };
    const p = this.paths(id);
    await mkdir(p.folder, { recursive: true });
    await atomicWriteFile(p.folder, p.log, events.map((e) => JSON.stringify(e) + '\n').join(''));
    await writeJsonAtomic(p.meta, { ...meta, event_count: events.length });
    const session = await this.load(id, meta);
    this.changed.fire({ type: 'upsert', session: session.summary() });
    return session;
  }

  private load(id: string, meta: SessionMeta): Promise<Session> {
    const closing = this.closing.get(id) ?? Promise.resolve();
    const pending = closing
      .then(() => Session.open(meta, this.paths(id).log))
      .then((session) => {
        // meta.json may lag the log after a crash; the log wins.
        session.meta = { ...session.meta, title: session.snapshot().title || session.meta.title };
        // Subscribers who followed the session before it loaded continue from their cursor.
        for (const w of this.watchers.get(id) ?? [])
          w.attached = session.subscribe(w.cursor, w.sink);
        this.watchers.delete(id);
        session.onDidAppend((e) => {
          // The title follows the log as each rename lands, before anyone is told of it.
          if (e.type === 'session_renamed') session.meta = { ...session.meta, title: e.title };
          if (e.type === 'run_state' || e.type === 'session_renamed' || e.type === 'user_message') {
            this.changed.fire({ type: 'upsert', session: session.summary() });
          }
          if (e.type === 'run_state') this.lifetimes.settle(session);
        });
        this.created.fire(session);
        // Whoever loaded it uses it in this turn; then, unless someone views it, it lets go.
        setImmediate(() => {
          if (this.open.get(id) === pending) this.lifetimes.settle(session);
        });
        return session;
      });
    this.open.set(id, pending);
    pending.catch(() => this.open.delete(id));
    return pending;
  }

  async get(id: string): Promise<Session> {
    if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
    const existing = this.open.get(id);
    if (existing) return existing;
    const meta = await readJsonOr<SessionMeta | null>(this.paths(id).meta, null);
    if (!meta) throw new SessionNotFoundError(id);
    // The settled state it was closed with is the live session's to tell from now on.
    const { run_state: _closedAs, ...live } = meta as SessionMeta;
    // Another get may have loaded it while the meta was read: one Session (one log) per id.
    return this.open.get(id) ?? this.load(id, live);
  }

  /** The stored index as loaded, without scanning what the log gained since. */
  private storedIndex(id: string): Promise<EventLogIndex> {
    let idx = this.indexes.get(id);
    if (!idx) {
      idx = EventLogIndex.open(this.paths(id).log, false);
      this.indexes.set(id, idx);
      idx.catch(() => this.indexes.delete(id));
    }
    return idx;
  }

  /** The index, caught up with the log. */
  private index(id: string): Promise<EventLogIndex> {
    return this.storedIndex(id).then(async (i) => {
      await i.catchUp();
      // Written after the caller got its answer; a failure only costs the next open a scan.
      setImmediate(() => void i.save());
      return i;
    });
  }

  private async readMeta(id: string): Promise<SessionMeta> {
    if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
    const meta = await readJsonOr<SessionMeta | null>(this.paths(id).meta, null);
    if (!meta) throw new SessionNotFoundError(id);
    return meta as SessionMeta;
  }

  /**
   * The snapshot and the newest `limit` events, without loading the session: a session not open
   * in this host is read through its index (a seek to the window), so the cost does not grow with
   * its history.
   */
  async view(id: string, limit: number): Promise<SessionView> {
    let view = await this.readView(id, limit);
    // A damaged log (rare) is opened by its owner, whose recovery keeps the unreadable bytes
    // aside and words the notice; the view then comes from the loaded session.
    if (view.session.notice && !this.open.has(id)) {
      await this.get(id);
      view = await this.readView(id, limit);
    }
    // A session the log says is running was cut off by a restart: load it, so its owners repair
    // it (the run state it really has), which the client sees on the topic.
    const state = view.session.run_state;
    if (!this.open.has(id) && (state === 'running' || state === 'waiting'))
      void this.get(id).catch((err: unknown) => console.error(`[sessions] loading ${id}`, err));
    return view;
  }

  private async readView(id: string, limit: number): Promise<SessionView> {
    const loaded = this.open.get(id);
    if (loaded) {
      const session = await loaded;
      const next = session.length;
      const start = Math.max(0, next - limit);
      return {
        session: session.summary(),
        snapshot: session.snapshot(),
        events: [...session.events(start, next)],
        start,
        next,
      };
    }
    const meta = await this.readMeta(id);
    const stored = await this.storedIndex(id);
    if ((await stored.unscannedBytes()) > (this.opts.tailFirstBytes ?? TAIL_FIRST_BYTES)) {
      const events = await readTail(this.paths(id).log, limit);
      void this.index(id).catch((err: unknown) =>
        console.error(`[sessions] indexing ${id} failed`, err),
      );
      const last = events[events.length - 1];
      return {
        session: {
          id,
          title: meta.title,
          project: meta.project,
          root: meta.root,
          created_at: meta.created_at,
          updated_at: last?.ts ?? meta.created_at,
          event_count: last ? last.seq + 1 : 0,
          run_state: lastRunState(events) ?? 'idle',
          ...(meta.worktree ? { worktree: meta.worktree } : {}),
          ...(meta.remote ? { remote: meta.remote } : {}),
        },
        snapshot: null,
        events,
        start: events[0]?.seq ?? 0,
        next: last ? last.seq + 1 : 0,
      };
    }
    const idx = await this.index(id);
    const next = idx.length;
    const start = Math.max(0, next - limit);
    const events = await idx.read(start, next);
    const snapshot = idx.snapshot();
    return {
      session: {
        id,
        title: snapshot.title || meta.title,
        project: meta.project,
        root: meta.root,
        created_at: meta.created_at,
        updated_at: events[events.length - 1]?.ts ?? meta.created_at,
        event_count: next,
        run_state: snapshot.run_state,
        ...(meta.worktree ? { worktree: meta.worktree } : {}),
        ...(meta.remote ? { remote: meta.remote } : {}),
        ...(idx.notice() ? { notice: idx.notice()! } : {}),
      },
      snapshot,
      events,
      start,
      next,
    };
  }

  /** Events with seq in [from, to) (an older page on scroll, or a forward read from a cursor). */
  async page(id: string, from: number, to: number): Promise<SessionEvent[]> {
    const loaded = this.open.get(id);
    if (loaded) return [...(await loaded).events(from, to)];
    await this.readMeta(id);
    return (await this.index(id)).read(from, to);
  }

  /**
   * The `session:<id>` topic: replay from `cursor`, then live, with no gap and no duplicate, and
   * without loading a session nobody runs: its replay comes from the index, and the subscription
   * attaches to the session if it loads later (a message sent, a decision).
   */
  async watch(
    id: string,
    cursor: number,
    sink: (item: SessionTopicItem) => void,
  ): Promise<Disposable> {
    // Counted as a viewer from the start: the session is not closed under a replay.
    const viewer = this.lifetimes.view(id, (left) => this.settle(left));
    try {
      const sub = await this.follow(id, cursor, sink);
      return toDisposable(async () => {
        await sub.dispose();
        viewer.dispose();
      });
    } catch (err) {
      viewer.dispose();
      throw err;
    }
  }

  private async follow(
    id: string,
    cursor: number,
    sink: (item: SessionTopicItem) => void,
  ): Promise<Disposable> {
    if (!this.open.has(id)) {
      await this.readMeta(id);
      const idx = await this.index(id);
      // Replayed in pages so a far-behind cursor does not read everything at once.
      for (let from = cursor; !this.open.has(id) && from < idx.length;) {
        const to = Math.min(idx.length, from + 1000);
        const events = await idx.read(from, to);
        if (this.open.has(id)) break;
        for (const e of events) if (e.seq >= cursor) sink(e);
        cursor = Math.max(cursor, to);
        from = to;
      }
      // A run the log says is live was cut off by a restart: load the session so its owners
      // repair it; the subscriber follows the loaded session from its cursor.
      const state = idx.snapshot().run_state;
      if (!this.open.has(id) && (state === 'running' || state === 'waiting')) await this.get(id);
      if (!this.open.has(id)) {
        const w: Watcher = { cursor, sink, attached: null };
        let set = this.watchers.get(id);
        if (!set) this.watchers.set(id, (set = new Set()));
        set.add(w);
        sink({ type: 'session_snapshot', snapshot: idx.snapshot() });
        return toDisposable(() => {
          this.watchers.get(id)?.delete(w);
          void w.attached?.dispose();
        });
      }
    }
    // Loaded (or loading): the session replays from its memory what the index did not.
    const session = await this.open.get(id)!;
    const sub = session.subscribe(cursor, sink);
    sink({ type: 'session_snapshot', snapshot: session.snapshot() });
    return sub;
  }

  async list(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const rows = await Promise.all(
      names
        .filter((n) => ID_PATTERN.test(n))
        .map(async (id) => {
          const open = this.open.get(id);
          if (open) return (await open).summary();
          // Closing: its meta.json is being rewritten with what it settled as.
          await this.closing.get(id);
          const meta = (await readJsonOr<SessionMeta | null>(
            this.paths(id).meta,
            null,
          )) as SessionMeta | null;
          if (!meta) return null;
          const st = await stat(this.paths(id).log).catch(() => null);
          return {
            id,
            title: meta.title,
            project: meta.project,
            root: meta.root,
            created_at: meta.created_at,
            updated_at: st?.mtimeMs ?? meta.created_at,
            event_count: meta.event_count ?? 0,
            run_state: meta.run_state ?? 'idle',
            ...(meta.worktree ? { worktree: meta.worktree } : {}),
            ...(meta.remote ? { remote: meta.remote } : {}),
            ...(meta.agent ? { agent: meta.agent } : {}),
          } satisfies SessionSummary;
        }),
    );
    return rows
      .filter((r): r is SessionSummary => r !== null)
      .sort((a, b) => b.updated_at - a.updated_at);
  }

  /** Sessions whose messages contain `query`, with where it was said. */
  async search(query: string): Promise<Array<SessionHit & { id: string }>> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const hits = await Promise.all(
      names
        .filter((n) => ID_PATTERN.test(n))
        .map(async (id) => {
          const hit = await searchLog(this.paths(id).log, query);
          return hit ? { id, ...hit } : null;
        }),
    );
    return hits.filter((h) => h !== null);
  }

  /** One session's messages before seq `before` that contain `query` (find in a paged view). */
  async find(id: string, query: string, before: number) {
    if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
    return findInLog(this.paths(id).log, query, before);
  }

  /** `by`: absent when the user names it (an agent's title never replaces that). */
  async rename(id: string, title: string, by?: 'app'): Promise<SessionSummary> {
    const session = await this.get(id);
    const clean = title.trim();
    // The log is the truth; meta.json is the index, rewritten from it.
    await session.append({ type: 'session_renamed', title: clean, ...(by ? { by } : {}) });
    await writeJsonAtomic(this.paths(id).meta, { ...session.meta, event_count: session.length });
    return session.summary();
  }

  /** Moves a session to another project root (switch_project, the picker). */
  async setProject(id: string, project: string | null, root: string | null): Promise<void> {
    const session = await this.get(id);
    session.meta = { ...session.meta, project, root };
    await writeJsonAtomic(this.paths(id).meta, { ...session.meta, event_count: session.length });
    this.changed.fire({ type: 'upsert', session: session.summary() });
  }

  /** Binds the session to another agent (null: the app's own); the caller checked it may. */
  async setAgent(id: string, agent: string | null): Promise<SessionSummary> {
    const session = await this.get(id);
    const { agent: _was, ...rest } = session.meta;
    session.meta = agent === null ? rest : { ...rest, agent };
    await session.append({ type: 'agent_change', agent });
    await writeJsonAtomic(this.paths(id).meta, { ...session.meta, event_count: session.length });
    this.changed.fire({ type: 'upsert', session: session.summary() });
    return session.summary();
  }

  /** Records what became of a session's worktree (removed by Discard): meta and listeners. */
  async setWorktree(id: string, worktree: SessionWorktree): Promise<void> {
    const session = await this.get(id);
    session.meta = { ...session.meta, worktree };
    await writeJsonAtomic(this.paths(id).meta, { ...session.meta, event_count: session.length });
    this.changed.fire({ type: 'upsert', session: session.summary() });
  }

  /**
   * Removes a session and its files. Works whatever state its log is in: a session that cannot
   * be opened (unreadable log, no meta.json) is deleted without being opened.
   */
  async delete(id: string): Promise<void> {
    if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
    const folder = this.paths(id).folder;
    this.lifetimes.cancel(id);
    await this.closing.get(id);
    const loading = this.open.get(id);
    const session = loading ? await loading.catch(() => null) : null;
    if (!session && !(await stat(folder).catch(() => null))) throw new SessionNotFoundError(id);
    if (session) this.deleting.fire(session);
    this.open.delete(id);
    this.indexes.delete(id);
    for (const w of this.watchers.get(id) ?? []) void w.attached?.dispose();
    this.watchers.delete(id);
    await session?.dispose().catch((err: unknown) => {
      console.warn(`sessions: closing ${id} before deleting it failed: ${(err as Error).message}`);
    });
    await rm(folder, { recursive: true, force: true });
    this.changed.fire({ type: 'deleted', id });
  }

  async dispose(): Promise<void> {
    this.lifetimes.dispose();
    await Promise.allSettled([...this.closing.values()]);
    // Indexes of sessions read but not loaded: what they learned saves the next start a scan.
    const indexes = await Promise.allSettled([...this.indexes.values()]);
    this.indexes.clear();
    for (const i of indexes) if (i.status === 'fulfilled') await i.value.save(true);
    for (const set of this.watchers.values()) for (const w of set) void w.attached?.dispose();
    this.watchers.clear();
    const sessions = await Promise.allSettled([...this.open.values()]);
    this.open.clear();
    for (const s of sessions) {
      if (s.status !== 'fulfilled') continue;
      await writeJsonAtomic(this.paths(s.value.id).meta, {
        ...s.value.meta,
        event_count: s.value.length,
      }).catch(() => {});
      await s.value.dispose();
    }
    this.changed.dispose();
    this.created.dispose();
    this.deleting.dispose();
  }
}

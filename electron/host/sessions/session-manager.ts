import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import { Session, type SessionMeta } from './session';
import { newSessionId, SESSION_ID_PATTERN } from './session-folders';
import { searchLog, type SessionHit } from './session-search';
import { DEFAULT_SESSION_TITLE } from './session-title';
import type { SessionSummary, SessionsChange } from '../../../shared/protocol/session-summary';
import type { SessionEvent } from '../../../shared/protocol/events';
import { atomicWriteFile } from '../fs/atomic-write';

const ID_PATTERN = SESSION_ID_PATTERN;

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
 * `meta.json` (the index entry: title, project, counts). Sessions open lazily and stay open.
 */
export class SessionManager implements Disposable {
  private readonly open = new Map<string, Promise<Session>>();
  private readonly changed = new Emitter<SessionsChange>();
  private readonly created = new Emitter<Session>();
  private readonly deleting = new Emitter<Session>();

  readonly onDidChange: Event<SessionsChange> = this.changed.event;
  /** A session was opened (created or loaded): owners attach per-session resources here. */
  readonly onDidOpen: Event<Session> = this.created.event;
  /** Fires before a session's files are removed; its resources are disposed right after. */
  readonly onWillDelete: Event<Session> = this.deleting.event;

  constructor(private readonly dir: string) {}

  private paths(id: string) {
    const folder = join(this.dir, id);
    return { folder, log: join(folder, 'events.jsonl'), meta: join(folder, 'meta.json') };
  }

  async create(
    opts: { title?: string; project?: string | null; root?: string | null } = {},
  ): Promise<Session> {
    const id = newSessionId();
    const meta: SessionMeta = {
      id,
      title: opts.title?.trim() || DEFAULT_SESSION_TITLE,
      project: opts.project ?? null,
      root: opts.root ?? null,
      created_at: Date.now(),
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
    });
    this.changed.fire({ type: 'upsert', session: session.summary() });
    return session;
  }

  /**
   * A new session whose log starts as `events` (a fork's prefix, an imported log), checked to be
   * a contiguous log from seq 0; the log is written in full before the session is listed.
   */
  async createFrom(
    opts: { title: string; project: string | null; root: string | null },
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
    const pending = Session.open(meta, this.paths(id).log).then((session) => {
      // meta.json may lag the log after a crash; the log wins.
      session.meta = { ...session.meta, title: lastTitle(session) ?? session.meta.title };
      session.onDidAppend((e) => {
        // The title follows the log as each rename lands, before anyone is told of it.
        if (e.type === 'session_renamed') session.meta = { ...session.meta, title: e.title };
        if (e.type === 'run_state' || e.type === 'session_renamed' || e.type === 'user_message') {
          this.changed.fire({ type: 'upsert', session: session.summary() });
        }
      });
      this.created.fire(session);
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
    return this.load(id, meta as SessionMeta);
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
            run_state: 'idle',
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

  async rename(id: string, title: string): Promise<SessionSummary> {
    const session = await this.get(id);
    const clean = title.trim();
    // The log is the truth; meta.json is the index, rewritten from it.
    await session.append({ type: 'session_renamed', title: clean });
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

  /**
   * Removes a session and its files. Works whatever state its log is in: a session that cannot
   * be opened (unreadable log, no meta.json) is deleted without being opened.
   */
  async delete(id: string): Promise<void> {
    if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
    const folder = this.paths(id).folder;
    const loading = this.open.get(id);
    const session = loading ? await loading.catch(() => null) : null;
    if (!session && !(await stat(folder).catch(() => null))) throw new SessionNotFoundError(id);
    if (session) this.deleting.fire(session);
    this.open.delete(id);
    await session?.dispose().catch((err: unknown) => {
      console.warn(`sessions: closing ${id} before deleting it failed: ${(err as Error).message}`);
    });
    await rm(folder, { recursive: true, force: true });
    this.changed.fire({ type: 'deleted', id });
  }

  async dispose(): Promise<void> {
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

function lastTitle(session: Session): string | undefined {
  const events = session.events();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'session_renamed') return e.title;
  }
  return undefined;
}

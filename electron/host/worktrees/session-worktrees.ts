import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import { HostError } from '../rpc/host-error';
import { isInside } from '../fs/safe-path';
import { worktreeGrant, type WorktreeGrant } from '../sandbox/worktree-grant';
import { realPathLoose } from '../sandbox/real-path';
import type { CopyOutcome } from './copy-listed-files';
import { checkoutGit } from './worktree-git';
import type { WorktreeLoss, WorktreeReview } from '../../../shared/protocol/commands/worktrees';
import { LocalWorktreeSite, type WorktreeSite } from './worktree-site';

/** The queue (serial()) every worktree creation goes through. */
const CREATE_QUEUE = 'create';

export interface SessionWorktreesOptions {
  /** $MEWBO_HOME: never a place for a worktree (shells are denied all of it). */
  appHome: string;
  config: () => Pick<AppConfig, 'worktrees'>;
  sessions: SessionManager;
  /** The host's own scratch folder (never the agent's): index copies, three-way merge inputs. */
  scratchDir: string;
  /**
   * The site of a remote project's worktrees (`url`: the project's ssh:// URL): its host's git,
   * through the remote part. Absent where nothing connects to hosts (a headless command): a
   * remote session's worktree is then refused, saying where to review it.
   */
  remoteSite?: (url: string) => WorktreeSite;
}

/**
 * The git worktrees sessions work in (issue 28): makes them, and knows every session's, so the
 * sandbox can give a session's shells its own worktree and the read-only checkout, and deny
 * them every other session's worktree. A session of a project on an SSH host has its worktree on
 * that host (#29 part 3): its record is kept in the session as any other, but its git runs there
 * (worktree-site.ts) and its paths, which name the host's folders, are never used on this
 * computer: not tracked for this computer's shells, never pruned or removed here.
 */
export class SessionWorktrees implements Disposable {
  private readonly bySession = new Map<string, SessionWorktree>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly subscriptions: Disposable[];
  private readonly local: LocalWorktreeSite;

  private constructor(private readonly opts: SessionWorktreesOptions) {
    this.local = new LocalWorktreeSite({
      appHome: opts.appHome,
      config: () => opts.config().worktrees,
      scratchDir: opts.scratchDir,
    });
    // Whoever loads a session (a run, a view, an import) makes its worktree known before use;
    // each time its run stops or pauses, what it changed is counted again for the sidebar (the
    // subscription ends with the session's own emitter when it closes).
    this.subscriptions = [
      opts.sessions.onDidOpen((s) => {
        if (!s.meta.worktree || s.meta.worktree.removed_at) return;
        if (!s.meta.remote) this.track(s.id, s.meta.worktree);
        s.onDidAppend((e) => {
          if (e.type === 'run_state' && e.state !== 'running') void this.recount(s.id);
        });
      }),
    ];
  }

  /** The service, knowing every stored session's worktree (their shells' denials need all). */
  static async open(opts: SessionWorktreesOptions): Promise<SessionWorktrees> {
    const service = new SessionWorktrees(opts);
    const known: SessionWorktree[] = [];
    for (const s of await opts.sessions.list()) {
      // A remote session's worktree is a folder of its host: nothing here to track or prune.
      if (s.remote) continue;
      if (s.worktree) known.push(s.worktree);
      if (s.worktree && !s.worktree.removed_at) service.track(s.id, s.worktree);
    }
    await service.pruneGone(known);
    return service;
  }

  /**
   * A new session working in a new worktree of the repository holding `projectRoot` (a folder of
   * the SSH host of `remote` when given); nothing is left behind (no folder, no branch) when
   * either part fails.
   */
  async createSession(opts: {
    title?: string;
    project: string | null;
    projectRoot: string;
    request: WorktreeRequest;
    remote?: string;
  }): Promise<{ session: Session; copy: CopyOutcome }> {
    const site = this.siteOf(opts.remote);
    // One at a time: two made at once would both pick the first free branch name.
    const made = await this.serial(CREATE_QUEUE, () =>
      site.create({
        projectDir: opts.projectRoot,
        request: opts.request,
        title: opts.title ?? '',
      }),
    );
    try {
      const session = await this.opts.sessions.create({
        title: opts.title,
        project: opts.project,
        root: made.root,
        worktree: made.worktree,
        ...(opts.remote ? { remote: opts.remote } : {}),
      });
      return { session, copy: made.copy };
    } catch (err) {
      await site.remove(made.worktree).catch(() => {});
      throw err;
    }
  }

  /** A session's worktree, as its meta records it (at creation, at load, at start). */
  track(sessionId: string, worktree: SessionWorktree): void {
    this.bySession.set(sessionId, worktree);
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  get(sessionId: string): SessionWorktree | undefined {
    return this.bySession.get(sessionId);
  }

  /** Every session's worktree as a project (key to path): other sessions' shells are denied it. */
  asProjects(): Record<string, string> {
    return Object.fromEntries(
      [...this.bySession].map(([id, wt]) => [`session-worktree:${id}`, wt.path]),
    );
  }

  /**
   * A session's live worktree and the site its git runs on (this computer's, or its project's
   * SSH host's), or a refusal saying why it has none.
   */
  private async live(id: string): Promise<{ wt: SessionWorktree; site: WorktreeSite }> {
    const meta = (await this.opts.sessions.get(id)).meta;
    const wt = meta.worktree;
    if (!wt)
      throw new HostError(
        'no_worktree',
        `session ${id} works in its project, not in a worktree of its own`,
      );
    if (wt.removed_at)
      throw new HostError(
        'worktree_removed',
        `session ${id}'s worktree (branch ${wt.branch}) was discarded`,
      );
    return { wt, site: this.siteOf(meta.remote) };
  }

  /** Where the git of a session's worktree runs: here, or on the host of its remote project. */
  private siteOf(remote: string | undefined): WorktreeSite {
    if (!remote) return this.local;
    if (!this.opts.remoteSite)
      throw new HostError(
        'remote_unavailable',
        `the worktree is on the SSH host of ${remote}, and this command does not connect to hosts: review it in the app (or mewbo serve)`,
      );
    return this.opts.remoteSite(remote);
  }

  /** One operation at a time per key (a session, a checkout); other keys go on meanwhile. */
  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(fn, fn);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** What the session changed since its base (committed or not), and its commits. */
  review(id: string): Promise<WorktreeReview> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      return { worktree: wt, ...(await site.review(wt)) };
    });
  }

  /**
   * Counts the files the session changed since its base and records the count in its worktree
   * record when it moved (the sessions topic carries it). A worktree discarded meanwhile, or one
   * git cannot read now, keeps the count it had: the Review says what is wrong.
   */
  recount(id: string): Promise<void> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      const count = await site.changedCount(wt);
      if (count !== wt.changed_files)
        await this.opts.sessions.setWorktree(id, { ...wt, changed_files: count });
    }).catch(() => {});
  }

  /** The unified diff from the base to the work now (one file, or all). */
  diff(id: string, path?: string): Promise<string> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      return site.diff(wt, path);
    });
  }

  /**
   * Where a session's live worktree is, for the user's own tools (Open folder). A worktree on an
   * SSH host is no folder of this computer: refused, saying where it is.
   */
  async folder(id: string): Promise<string> {
    const { wt } = await this.live(id);
    const remote = (await this.opts.sessions.get(id)).meta.remote;
    if (remote)
      throw new HostError(
        'remote_folder',
        `the worktree is on the SSH host of ${remote}, at ${wt.path}: open it there (ssh to the host, cd ${wt.path}); nothing on this computer is that folder`,
      );
    return wt.path;
  }

  /** The work not committed yet (what Commit would commit): its diff from HEAD and its files. */
  uncommitted(id: string): Promise<{ patch: string; files: string[] }> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      return site.uncommitted(wt);
    });
  }

  /** Apply: the work onto the checkout as uncommitted edits, all or nothing (apply-to-checkout.ts). */
  apply(id: string): Promise<string[]> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      const remote = (await this.opts.sessions.get(id)).meta.remote;
      const files = await this.serial(`checkout:${remote ?? ''}:${wt.checkout}`, () =>
        site.apply(wt),
      );
      await this.note(
        id,
        'worktree_applied',
        files.length
          ? `Applied ${files.length} file${files.length === 1 ? '' : 's'} to ${wt.checkout} as uncommitted changes: ${files.join(', ')}`
          : `Nothing to apply to ${wt.checkout}: it already has the session's changes`,
      );
      return files;
    });
  }

  /** Commits everything not committed in the worktree on the session's branch. */
  commit(id: string, message: string): Promise<string> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      const sha = await site.commit(wt, message);
      await this.note(
        id,
        'worktree_committed',
        `Committed ${sha.slice(0, 12)} on ${wt.branch}: ${message.split('\n')[0]}`,
      );
      return sha;
    });
  }

  /** What Discard would lose: uncommitted work, commits no other branch has. */
  loss(id: string): Promise<WorktreeLoss> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      return site.loss(wt);
    });
  }

  /** Removes the worktree and its branch; the session keeps its history. */
  discard(id: string): Promise<void> {
    return this.serial(id, async () => {
      const { wt, site } = await this.live(id);
      await site.remove(wt);
      const removed = { ...wt, removed_at: Date.now() };
      await this.opts.sessions.setWorktree(id, removed);
      this.bySession.delete(id);
      await this.note(
        id,
        'worktree_discarded',
        `Discarded the worktree ${wt.path} and its branch ${wt.branch}`,
      );
    });
  }

  /**
   * The worktree and branch of a session being deleted, removed: never with work in it that no
   * other branch holds (files not committed, commits of its own) unless `discardWork` says the
   * user confirmed losing it. A session with no live worktree has nothing to remove.
   */
  removeForDelete(id: string, opts: { discardWork: boolean }): Promise<void> {
    return this.serial(id, async () => {
      const meta = (await this.opts.sessions.get(id)).meta;
      const wt = meta.worktree;
      if (!wt || wt.removed_at) return;
      const site = this.siteOf(meta.remote);
      if (!opts.discardWork) {
        const { uncommitted, commits } = await site.loss(wt);
        if (uncommitted.length || commits.length)
          throw new HostError(
            'worktree_has_work',
            `the worktree ${wt.path} (branch ${wt.branch}) holds work no other branch has: ${[
              ...uncommitted.map((p) => `${p} (not committed)`),
              ...commits.map((c) => `commit ${c.sha.slice(0, 12)} ${c.subject}`),
            ].join(', ')}. Nothing was deleted: keep the worktree, or confirm losing this work`,
            [
              ...uncommitted.map((p) => ({ path: p, message: 'not committed' })),
              ...commits.map((c) => ({ path: c.sha, message: c.subject })),
            ],
          );
      }
      await site.remove(wt);
      this.bySession.delete(id);
    });
  }

  /**
   * git's records of worktrees whose folders are gone (removed by hand, or by a crash between
   * `rm` and `prune`), dropped at start for every repository a session worktree came from, so a
   * branch they held can be deleted and a new worktree can take their folder name.
   */
  private async pruneGone(worktrees: readonly SessionWorktree[]): Promise<void> {
    const byCheckout = new Map(worktrees.map((wt) => [wt.checkout, wt]));
    await Promise.all(
      [...byCheckout.values()].map((wt) => checkoutGit(wt, ['worktree', 'prune']).catch(() => {})),
    );
  }

  private async note(id: string, code: string, message: string): Promise<void> {
    await (await this.opts.sessions.get(id)).append({ type: 'notice', code, message });
  }

  dispose(): void {
    for (const s of this.subscriptions) void s.dispose();
  }

  /** What a spawn of `sessionId` in `root` gets of its worktree; nothing for a root outside it. */
  grantFor(sessionId: string, root: string): WorktreeGrant | undefined {
    const wt = this.bySession.get(sessionId);
    return wt && isInside(wt.path, realPathLoose(root)) ? worktreeGrant(wt) : undefined;
  }
}

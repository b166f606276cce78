import { realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import { HostError } from '../rpc/host-error';
import { isInside } from '../fs/safe-path';
import { addWorktree } from '../projects/git-ops';
import { git } from '../projects/git';
import { worktreeGrant, type WorktreeGrant } from '../sandbox/worktree-grant';
import { realPathLoose } from '../sandbox/real-path';
import { copyListedFiles, type CopyOutcome } from './copy-listed-files';
import { repoStart } from './repo-preflight';
import { removeSessionWorktree } from './remove-worktree';
import {
  checkBranchName,
  checkLocation,
  freeFolder,
  pickBranchName,
  worktreesParent,
} from './worktree-location';

export interface NewWorktree {
  worktree: SessionWorktree;
  /** The session's root: the project folder's place in the worktree. */
  root: string;
  copy: CopyOutcome;
}

export interface SessionWorktreesOptions {
  /** $MEWBO_HOME: never a place for a worktree (shells are denied all of it). */
  appHome: string;
  config: () => Pick<AppConfig, 'worktrees'>;
  sessions: SessionManager;
}

/**
 * The git worktrees sessions work in (issue 28): makes them, and knows every session's, so the
 * sandbox can give a session's shells its own worktree and the read-only checkout, and deny
 * them every other session's worktree.
 */
export class SessionWorktrees implements Disposable {
  private readonly bySession = new Map<string, SessionWorktree>();
  private readonly subscriptions: Disposable[];

  private constructor(private readonly opts: SessionWorktreesOptions) {
    // Whoever loads a session (a run, a view, an import) makes its worktree known before use.
    this.subscriptions = [
      opts.sessions.onDidOpen((s) => {
        if (s.meta.worktree) this.track(s.id, s.meta.worktree);
      }),
    ];
  }

  /** The service, knowing every stored session's worktree (their shells' denials need all). */
  static async open(opts: SessionWorktreesOptions): Promise<SessionWorktrees> {
    const service = new SessionWorktrees(opts);
    for (const s of await opts.sessions.list()) if (s.worktree) service.track(s.id, s.worktree);
    return service;
  }

  /**
   * A new session working in a new worktree of the repository holding `projectRoot`; nothing is
   * left behind (no folder, no branch) when either part fails.
   */
  async createSession(opts: {
    title?: string;
    project: string | null;
    projectRoot: string;
    request: WorktreeRequest;
  }): Promise<{ session: Session; copy: CopyOutcome }> {
    const made = await this.create(opts.projectRoot, opts.request, opts.title ?? '');
    try {
      const session = await this.opts.sessions.create({
        title: opts.title,
        project: opts.project,
        root: made.root,
        worktree: made.worktree,
      });
      return { session, copy: made.copy };
    } catch (err) {
      await removeSessionWorktree(made.worktree).catch(() => {});
      throw err;
    }
  }

  /**
   * A new worktree of the repository holding `projectDir`, on a new branch from its HEAD, with
   * the `worktrees.copy` files. Refused, with what to do, when the repository is not fit for one
   * (repo-preflight.ts) or the branch or folder is taken.
   */
  private async create(
    projectDir: string,
    request: WorktreeRequest,
    title: string,
  ): Promise<NewWorktree> {
    const dir = await realpath(projectDir).catch(() => {
      throw new HostError('invalid_path', `the project folder ${projectDir} is not there`);
    });
    const start = await repoStart(dir);
    const config = this.opts.config().worktrees;
    const branch =
      request === true
        ? await pickBranchName(start.top, title)
        : (await checkBranchName(start.top, request.branch), request.branch);
    const dest = await freeFolder(worktreesParent(config.dir, start.top), branch);
    checkLocation(dest, start.top, this.opts.appHome);
    await addWorktree({
      repoDir: start.top,
      branch,
      dest,
      base: start.head,
      newBranch: true,
    }).catch((err: Error) => {
      // Taken between the check and the add (another session, the user's own git).
      if (/a branch named .* already exists/.test(err.message))
        throw new HostError(
          'branch_exists',
          `branch '${branch}' already exists in ${start.top}: pick another name`,
        );
      throw err;
    });
    const path = await realpath(dest);
    const worktree: SessionWorktree = {
      path,
      branch,
      base: start.head,
      checkout: start.top,
      git_dir: await realpath(start.gitDir),
      name: '',
    };
    try {
      const own = await git(['rev-parse', '--absolute-git-dir'], path);
      if (!own.ok) throw new HostError('git_failed', `git rev-parse in ${path}: ${own.error}`);
      worktree.name = basename(own.stdout.trim());
      const copy = await copyListedFiles(start.top, path, config.copy);
      return { worktree, root: start.subdir ? join(path, start.subdir) : path, copy };
    } catch (err) {
      await removeSessionWorktree(worktree).catch(() => {});
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

  dispose(): void {
    for (const s of this.subscriptions) void s.dispose();
  }

  /** What a spawn of `sessionId` in `root` gets of its worktree; nothing for a root outside it. */
  grantFor(sessionId: string, root: string): WorktreeGrant | undefined {
    const wt = this.bySession.get(sessionId);
    return wt && isInside(wt.path, realPathLoose(root)) ? worktreeGrant(wt) : undefined;
  }
}

import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { WorktreeLoss, WorktreeReview } from '../../../shared/protocol/commands/worktrees';
import type { AppConfig } from '../config/schema';
import { HostError } from '../rpc/host-error';
import { GIT_WRITE_TIMEOUT_MS } from '../projects/constants';
import { applyToCheckout } from './apply-to-checkout';
import { createWorktree, type NewWorktree } from './create-worktree';
import { removeSessionWorktree } from './remove-worktree';
import {
  changedFiles,
  sessionCommits,
  sessionPatch,
  uncommittedPaths,
  unmergedCommits,
  workTree,
} from './session-work';
import { worktreeGit } from './worktree-git';

// Where a session worktree's git runs (issue 28, and #29 part 3 for a project on an SSH host).
// SessionWorktrees owns the sessions' records, their order of operations and what the session's
// log says; a site does the git of one step on the machine that holds the repository. The local
// site is this computer's git; the remote part serves the same local site on the host
// (remote/remote-worktree-handlers.ts), and the app reaches it there through
// remote/remote-worktree-site.ts, so one owner's logic runs on either machine.

/** What Review shows of the work, without the record the app already holds. */
export type WorktreeWork = Omit<WorktreeReview, 'worktree'>;

export interface WorktreeSite {
  /** A new worktree of the repository holding `projectDir` (create-worktree.ts). */
  create(req: {
    projectDir: string;
    request: WorktreeRequest;
    title: string;
  }): Promise<NewWorktree>;
  /** What the session changed since its base (committed or not), and its commits. */
  review(wt: SessionWorktree): Promise<WorktreeWork>;
  /** Files that differ from the base now: the sidebar's count. */
  changedCount(wt: SessionWorktree): Promise<number>;
  /** The unified diff from the base to the work now (one file, or all). */
  diff(wt: SessionWorktree, path?: string): Promise<string>;
  /** The work not committed yet (what Commit would commit): its diff from HEAD and its files. */
  uncommitted(wt: SessionWorktree): Promise<{ patch: string; files: string[] }>;
  /** The work onto the checkout as uncommitted edits, all or nothing; the paths written. */
  apply(wt: SessionWorktree): Promise<string[]>;
  /** Commits everything not committed on the session's branch; the commit's id. */
  commit(wt: SessionWorktree, message: string): Promise<string>;
  /** What removing the worktree would lose. */
  loss(wt: SessionWorktree): Promise<WorktreeLoss>;
  /** Removes the worktree folder, git's record of it and its branch. */
  remove(wt: SessionWorktree): Promise<void>;
}

export interface LocalWorktreeSiteOptions {
  /** This machine's $MEWBO_HOME: never a place for a worktree (shells are denied all of it). */
  appHome: string;
  config: () => AppConfig['worktrees'];
  /** The app's own scratch folder (never the agent's): index copies, three-way merge inputs. */
  scratchDir: string;
}

/** The git of this machine: the repository is here. */
export class LocalWorktreeSite implements WorktreeSite {
  constructor(private readonly opts: LocalWorktreeSiteOptions) {}

  create(req: {
    projectDir: string;
    request: WorktreeRequest;
    title: string;
  }): Promise<NewWorktree> {
    return createWorktree({ ...req, appHome: this.opts.appHome, config: this.opts.config() });
  }

  private tree(wt: SessionWorktree): Promise<string> {
    return workTree(wt, this.opts.scratchDir);
  }

  async review(wt: SessionWorktree): Promise<WorktreeWork> {
    const tree = await this.tree(wt);
    const [files, commits, uncommitted] = await Promise.all([
      changedFiles(wt, tree),
      sessionCommits(wt),
      uncommittedPaths(wt, tree),
    ]);
    return {
      files: files.map((f) => ({
        path: f.path,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
      })),
      commits,
      uncommitted,
    };
  }

  async changedCount(wt: SessionWorktree): Promise<number> {
    return (await changedFiles(wt, await this.tree(wt))).length;
  }

  async diff(wt: SessionWorktree, path?: string): Promise<string> {
    return sessionPatch(wt, await this.tree(wt), { path });
  }

  async uncommitted(wt: SessionWorktree): Promise<{ patch: string; files: string[] }> {
    const tree = await this.tree(wt);
    const [patch, files] = await Promise.all([
      sessionPatch(wt, tree, { from: 'HEAD' }),
      uncommittedPaths(wt, tree),
    ]);
    return { patch, files };
  }

  async apply(wt: SessionWorktree): Promise<string[]> {
    return applyToCheckout(wt, await this.tree(wt), this.opts.scratchDir);
  }

  async commit(wt: SessionWorktree, message: string): Promise<string> {
    const add = await worktreeGit(wt, ['add', '--all', '--', '.'], {
      timeoutMs: GIT_WRITE_TIMEOUT_MS,
    });
    if (!add.ok) throw new HostError('git_failed', `git add failed in ${wt.path}: ${add.error}`);
    const r = await worktreeGit(wt, ['commit', '--quiet', '--no-verify', '-m', message], {
      timeoutMs: GIT_WRITE_TIMEOUT_MS,
    });
    if (!r.ok) {
      const nothing = /nothing to commit|no changes added/.test(r.error + r.stdout);
      throw new HostError(
        nothing ? 'nothing_to_commit' : 'git_failed',
        nothing
          ? `nothing to commit in ${wt.path}: every change is on branch ${wt.branch} already`
          : `git commit failed in ${wt.path}: ${r.error || r.stdout.trim()}`,
      );
    }
    return (await worktreeGit(wt, ['rev-parse', 'HEAD'])).stdout.trim();
  }

  async loss(wt: SessionWorktree): Promise<WorktreeLoss> {
    const tree = await this.tree(wt);
    const [uncommitted, commits] = await Promise.all([
      uncommittedPaths(wt, tree),
      unmergedCommits(wt),
    ]);
    return { uncommitted, commits };
  }

  remove(wt: SessionWorktree): Promise<void> {
    return removeSessionWorktree(wt);
  }
}

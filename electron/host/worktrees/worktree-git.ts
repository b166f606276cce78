import { join } from 'node:path';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import { git, type GitOptions, type GitResult } from '../projects/git';
import { GIT_TIMEOUT_MS } from '../projects/constants';

/** The worktree's administrative folder in the repository's git directory. */
export function adminDir(wt: SessionWorktree): string {
  return join(wt.git_dir, 'worktrees', wt.name);
}

/**
 * git on a session's worktree, located by the host's record, never by what is on disk there:
 * the `.git` file of the worktree and `commondir` in its administrative folder are the agent's to
 * write, and one pointing at another repository would have the host run that repository's config.
 * GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE override both.
 */
export function worktreeGit(
  wt: SessionWorktree,
  args: readonly string[],
  opts: GitOptions & { timeoutMs?: number } = {},
): Promise<GitResult> {
  return git(args, wt.path, opts.timeoutMs ?? GIT_TIMEOUT_MS, {
    ...opts,
    env: {
      GIT_DIR: adminDir(wt),
      GIT_COMMON_DIR: wt.git_dir,
      GIT_WORK_TREE: wt.path,
      ...opts.env,
    },
  });
}

/**
 * git on the checkout the session's worktree was made from (Apply writes there). Found from the
 * checkout itself: its files and its git directory's own entries are out of the agent's reach.
 */
export function checkoutGit(
  wt: SessionWorktree,
  args: readonly string[],
  opts: GitOptions & { timeoutMs?: number } = {},
): Promise<GitResult> {
  return git(args, wt.checkout, opts.timeoutMs ?? GIT_TIMEOUT_MS, opts);
}

import { rm } from 'node:fs/promises';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import { HostError } from '../rpc/host-error';
import { GIT_WRITE_TIMEOUT_MS } from '../projects/constants';
import { checkoutGit } from './worktree-git';

/**
 * Removes a session's worktree folder, git's record of it and (unless kept) its branch, leaving
 * no lock: `git worktree remove --force` twice over (a locked worktree too), then `prune` for a
 * folder already gone. The branch goes with `branch -D`: its commits were the session's.
 */
export async function removeSessionWorktree(
  wt: SessionWorktree,
  opts: { keepBranch?: boolean } = {},
): Promise<void> {
  const removed = await checkoutGit(wt, ['worktree', 'remove', '--force', '--force', wt.path], {
    timeoutMs: GIT_WRITE_TIMEOUT_MS,
  });
  if (!removed.ok) {
    // Gone by hand, or git no longer knows it: the folder (if any) and git's record go anyway.
    await rm(wt.path, { recursive: true, force: true });
    const pruned = await checkoutGit(wt, ['worktree', 'prune']);
    if (!pruned.ok)
      throw new HostError(
        'git_failed',
        `git worktree prune failed in ${wt.checkout}: ${pruned.error}`,
      );
  }
  if (opts.keepBranch) return;
  const branch = await checkoutGit(wt, ['branch', '-D', '--', wt.branch]);
  if (!branch.ok && !/not found/.test(branch.error))
    throw new HostError('git_failed', `git branch -D ${wt.branch} failed: ${branch.error}`);
}

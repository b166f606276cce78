import { join } from 'node:path';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';

// What a shell of a session that works in its own git worktree needs beyond its root (issue 28).
// The worktree is the root (written freely). The checkout it was made from is another project,
// denied to other projects' shells; to this one it is readable, never writable. git in the
// worktree keeps its commits, branches and reflogs in the repository's common git directory,
// which lies in that checkout: those parts are writable, so `git commit` works, while the
// directory's own entries (config, hooks, HEAD, the checkout's index, packed-refs, info/) stay
// read-only. Objects and refs are the repository's, shared by every worktree as git designs it:
// a shell there can move another branch, never touch the checkout's files, hooks or config.

export interface WorktreeGrant {
  /** The checkout the worktree was made from: readable, never writable. */
  checkout: string;
  /** The parts of the repository's git directory that git in the worktree writes. */
  gitWritable: string[];
}

export function worktreeGrant(
  wt: Pick<SessionWorktree, 'checkout' | 'git_dir' | 'name'>,
): WorktreeGrant {
  return {
    checkout: wt.checkout,
    gitWritable: [
      join(wt.git_dir, 'objects'),
      join(wt.git_dir, 'refs'),
      join(wt.git_dir, 'logs'),
      join(wt.git_dir, 'worktrees', wt.name),
    ],
  };
}

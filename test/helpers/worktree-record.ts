import type { SessionWorktree } from '../../shared/protocol/session-worktree';

/** A session's worktree record as the app keeps it: worktree `name` beside `checkout`. */
export function worktreeRecord(checkout: string, name: string): SessionWorktree {
  return {
    path: `${checkout}.worktrees/${name}`,
    branch: name,
    base: 'a'.repeat(40),
    checkout,
    git_dir: `${checkout}/.git`,
    name,
  };
}

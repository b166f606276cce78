import type { HandlerMap } from '../rpc/router';
import type { SessionWorktrees } from '../worktrees/session-worktrees';

type WorktreeHandlers = Pick<
  HandlerMap,
  | 'worktrees.review'
  | 'worktrees.diff'
  | 'worktrees.apply'
  | 'worktrees.commit'
  | 'worktrees.loss'
  | 'worktrees.discard'
>;

/** The Review of a session in its own worktree (issue 28 part 3). */
export function worktreeHandlers(worktrees: SessionWorktrees): WorktreeHandlers {
  return {
    'worktrees.review': (req) => worktrees.review(req.id),
    'worktrees.diff': async (req) => ({ patch: await worktrees.diff(req.id, req.path) }),
    'worktrees.apply': async (req) => ({ files: await worktrees.apply(req.id) }),
    'worktrees.commit': async (req) => ({ sha: await worktrees.commit(req.id, req.message) }),
    'worktrees.loss': (req) => worktrees.loss(req.id),
    'worktrees.discard': async (req) => {
      await worktrees.discard(req.id);
      return { ok: true as const };
    },
  };
}

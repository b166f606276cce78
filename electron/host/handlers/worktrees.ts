import type { HandlerMap } from '../rpc/router';
import type { SessionWorktrees } from '../worktrees/session-worktrees';
import type { AgentService } from '../agent/agent-service';
import type { SessionManager } from '../sessions/session-manager';
import { proposeCommitMessage } from '../worktrees/commit-message';
import { HostError } from '../rpc/host-error';
import type { BrowserOpener } from '../system/browser-opener';

type WorktreeHandlers = Pick<
  HandlerMap,
  | 'worktrees.review'
  | 'worktrees.diff'
  | 'worktrees.apply'
  | 'worktrees.commit'
  | 'worktrees.proposeMessage'
  | 'worktrees.openFolder'
  | 'worktrees.loss'
  | 'worktrees.discard'
>;

/** The Review of a session in its own worktree (issue 28 part 3). */
export function worktreeHandlers(
  worktrees: SessionWorktrees,
  sessions: SessionManager,
  agent: Pick<AgentService, 'ask'>,
  opener: BrowserOpener | null,
): WorktreeHandlers {
  return {
    'worktrees.review': (req) => worktrees.review(req.id),
    'worktrees.diff': async (req) => ({ patch: await worktrees.diff(req.id, req.path) }),
    'worktrees.apply': async (req) => ({ files: await worktrees.apply(req.id) }),
    'worktrees.commit': async (req) => ({ sha: await worktrees.commit(req.id, req.message) }),
    'worktrees.proposeMessage': async (req) => {
      const { patch, files } = await worktrees.uncommitted(req.id);
      if (!files.length)
        throw new HostError(
          'nothing_to_commit',
          `nothing to commit for session ${req.id}: every change is on its branch already`,
        );
      const session = await sessions.get(req.id);
      return proposeCommitMessage(patch, files, (ask, signal) => agent.ask(session, ask, signal));
    },
    'worktrees.openFolder': async (req) => {
      const path = await worktrees.folder(req.id);
      if (!opener)
        throw new HostError(
          'no_opener',
          `nothing here opens a folder (no desktop session, no $BROWSER): the worktree is at ${path}`,
        );
      await opener.openFolder(path).catch((err: unknown) => {
        throw new HostError('open_failed', err instanceof Error ? err.message : String(err));
      });
      return { path, opened_with: opener.name };
    },
    'worktrees.loss': (req) => worktrees.loss(req.id),
    'worktrees.discard': async (req) => {
      await worktrees.discard(req.id);
      return { ok: true as const };
    },
  };
}

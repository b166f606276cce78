import { join } from 'node:path';
import type { HomePaths } from '../config/paths';
import { narrowRoot } from '../fs/safe-path';
import type { HandlerMapOf } from '../rpc/router';
import { LocalWorktreeSite } from '../worktrees/worktree-site';
import type { worktreeCommands } from './worktree-commands';

// The remote part's side of a remote session's worktree: the same site a local project's session
// worktree uses (worktrees/worktree-site.ts), run here on the host's git, with this remote part's
// own $MEWBO_HOME as the folder a worktree may never go in and its state folder as the scratch
// space. A worktree goes beside its repository (`<repo>.worktrees/`): the app's `worktrees.dir`
// names a folder of the app's computer, not of this one.

export function remoteWorktreeHandlers(home: HomePaths): HandlerMapOf<typeof worktreeCommands> {
  const site = (copy: string[] = []) =>
    new LocalWorktreeSite({
      appHome: home.home,
      config: () => ({ dir: '', copy, default_for: [] }),
      scratchDir: join(home.stateDir, 'worktree-scratch'),
    });
  return {
    'worktree.create': async (req) => {
      const made = await site(req.copy).create({
        projectDir: narrowRoot(req.root),
        request: req.request,
        title: req.title,
      });
      return { worktree: made.worktree, root: made.root, copy: made.copy };
    },
    'worktree.review': (req) => site().review(req.worktree),
    'worktree.count': async (req) => ({ changed_files: await site().changedCount(req.worktree) }),
    'worktree.diff': async (req) => ({ patch: await site().diff(req.worktree, req.path) }),
    'worktree.uncommitted': (req) => site().uncommitted(req.worktree),
    'worktree.apply': async (req) => ({ files: await site().apply(req.worktree) }),
    'worktree.commit': async (req) => ({ sha: await site().commit(req.worktree, req.message) }),
    'worktree.loss': (req) => site().loss(req.worktree),
    'worktree.remove': async (req) => {
      await site().remove(req.worktree);
      return {};
    },
  };
}

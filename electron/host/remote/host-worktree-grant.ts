import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { worktreeGrant, type WorktreeGrant } from '../sandbox/worktree-grant';
import { BESIDE_REPO_SUFFIX } from '../worktrees/constants';

// What a shell the remote part starts in a session worktree on this host gets of its repository:
// the grant a local worktree session's shells get (sandbox/worktree-grant.ts), so the agent's
// `git commit` there works under Landlock. Only a session the app records as working in a
// worktree gets one, and only in that worktree (`top`, the record's folder): a session opened on
// a folder that happens to be some session's worktree gets nothing, as a local one does. The rest
// of the record (its git_dir, name, checkout) is not used: the grant's writable paths are worked
// out here, from the folder the spawn runs in, the way git finds them (the worktree's `.git`
// file, its administrative folder's `commondir`), and the whole chain must hold both ways:
// - the `.git` file (the agent can rewrite it) names `<common>/worktrees/<name>`, whose `gitdir`
//   names this `.git` back, so it cannot lead to another repository's or another worktree's
//   entry (those name their own folders);
// - `<common>` is a checkout's `.git` folder and the worktree sits in `<checkout>.worktrees/`,
//   where the remote part makes session worktrees (remote-worktree-handlers.ts): a project that is
//   merely some linked worktree of the user's gets nothing beyond its own folder.
// Anything else (no repository, a main checkout, a symlinked `.git`, a file that does not read)
// gets no grant, and the shell is confined to its root as before.

/**
 * The grant for a spawn in `root` when it lies in the session's worktree `top` on this host, else
 * undefined.
 */
export function hostWorktreeGrant(root: string, sessionTop: string): WorktreeGrant | undefined {
  try {
    const top = worktreeTop(realpathSync(root));
    if (!top || top !== realpathSync(sessionTop)) return undefined;
    const pointer = /^gitdir: (.+)$/.exec(readFileSync(join(top, '.git'), 'utf8').trim());
    // Stryker disable next-line ConditionalExpression,OptionalChaining: equivalent, resolve() throws on no match and the catch says undefined
    if (!pointer?.[1]) return undefined;
    const admin = realpathSync(resolve(top, pointer[1]));
    const entries = dirname(admin);
    const common = dirname(entries);
    const name = basename(admin);
    const commonNamed = realpathSync(resolve(admin, readLine(join(admin, 'commondir'))));
    const backLink = realpathSync(resolve(admin, readLine(join(admin, 'gitdir'))));
    const checkout = dirname(common);
    const fits =
      basename(entries) === 'worktrees' &&
      commonNamed === common &&
      backLink === join(top, '.git') &&
      basename(common) === '.git' &&
      dirname(top) === `${checkout}${BESIDE_REPO_SUFFIX}`;
    return fits ? worktreeGrant({ checkout, git_dir: common, name }) : undefined;
  } catch {
    // Anything that does not read (a missing file, a dangling link) is no session worktree.
  }
  return undefined;
}

/** The nearest folder at or above `dir` whose `.git` is a file (a linked worktree's top). */
function worktreeTop(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const git = lstatSync(join(d, '.git'), { throwIfNoEntry: false });
    if (git) return git.isFile() ? d : undefined;
    if (dirname(d) === d) return undefined;
  }
}

function readLine(file: string): string {
  return readFileSync(file, 'utf8').trim();
}

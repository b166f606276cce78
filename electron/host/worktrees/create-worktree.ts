import { realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { AppConfig } from '../config/schema';
import { HostError } from '../rpc/host-error';
import { addWorktree } from '../projects/git-ops';
import { git } from '../projects/git';
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

/**
 * A new worktree of the repository holding `projectDir`, on a new branch from its HEAD, with
 * the `worktrees.copy` files. Refused, with what to do, when the repository is not fit for one
 * (repo-preflight.ts) or the branch or folder is taken.
 */
export async function createWorktree(req: {
  projectDir: string;
  request: WorktreeRequest;
  title: string;
  /** $MEWBO_HOME: never a place for a worktree (shells are denied all of it). */
  appHome: string;
  config: AppConfig['worktrees'];
}): Promise<NewWorktree> {
  const { projectDir, request, title, config } = req;
  const dir = await realpath(projectDir).catch(() => {
    throw new HostError('invalid_path', `the project folder ${projectDir} is not there`);
  });
  const start = await repoStart(dir);
  const branch =
    request === true
      ? await pickBranchName(start.top, title)
      : (await checkBranchName(start.top, request.branch), request.branch);
  const dest = await freeFolder(worktreesParent(config.dir, start.top), branch);
  checkLocation(dest, start.top, req.appHome);
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

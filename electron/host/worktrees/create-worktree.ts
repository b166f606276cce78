import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { SessionWorktree, WorktreeRequest } from '../../../shared/protocol/session-worktree';
import type { AppConfig } from '../config/schema';
import { HostError } from '../rpc/host-error';
import { addWorktree } from '../projects/git-ops';
import { filterOverrides, git } from '../projects/git';
import { copyListedFiles, type CopyOutcome } from './copy-listed-files';
import { repoStart, type RepoStart } from './repo-preflight';
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
  // The checks, the branch name and the filter drivers to turn off for the checkout are asked of
  // git at once (each a process spawned: on a loaded machine the spawns, one after another, cost
  // half again what `git worktree add` does); the repository's refusal is the one said first.
  const starting = repoStart(dir);
  const naming =
    request === true
      ? pickBranchName(dir, title)
      : checkBranchName(dir, request.branch).then(() => request.branch);
  const filtering = filterOverrides(dir);
  naming.catch(() => {});
  filtering.catch(() => {});
  const start = await starting;
  const branch = await naming;
  const dest = await freeFolder(worktreesParent(config.dir, start.top), branch);
  checkLocation(dest, start.top, req.appHome);
  await addWorktree({
    repoDir: start.top,
    branch,
    dest,
    base: start.head,
    newBranch: true,
    nameChecked: true,
    filters: await filtering,
  }).catch((err: Error) => {
    // Taken between the check and the add (another session, the user's own git).
    if (/a branch named .* already exists/.test(err.message))
      throw new HostError(
        'branch_exists',
        `branch '${branch}' already exists in ${start.top}: pick another name`,
      );
    throw err;
  });
  return finishWorktree(start, dest, branch, start.head, config);
}

/**
 * The record of a worktree just added at `dest` (its real path, git's name for it) with the
 * `worktrees.copy` files; the worktree is removed again when any of it fails.
 */
async function finishWorktree(
  start: RepoStart,
  dest: string,
  branch: string,
  base: string,
  config: AppConfig['worktrees'],
): Promise<NewWorktree> {
  const path = await realpath(dest);
  const worktree: SessionWorktree = {
    path,
    branch,
    base,
    checkout: start.top,
    git_dir: await realpath(start.gitDir),
    name: '',
  };
  try {
    worktree.name = await adminName(path, worktree.git_dir);
    const copy = await copyListedFiles(start.top, path, config.copy);
    return { worktree, root: start.subdir ? join(path, start.subdir) : path, copy };
  } catch (err) {
    await removeSessionWorktree(worktree).catch(() => {});
    throw err;
  }
}

/**
 * git's name for the worktree just added at `path`: its administrative folder under
 * `<git dir>/worktrees/`, which the `.git` file git wrote there points at. Read from the file, not
 * asked of git: nothing but git has written in the folder yet, and a spawn costs more than a read.
 */
async function adminName(path: string, gitDir: string): Promise<string> {
  const pointer = /^gitdir: (.+)$/m.exec(await readFile(join(path, '.git'), 'utf8'))?.[1];
  const admin = pointer && (await realpath(resolve(path, pointer)).catch(() => null));
  if (!admin || dirname(admin) !== join(gitDir, 'worktrees'))
    throw new HostError(
      'git_failed',
      `git worktree add left ${join(path, '.git')} not pointing into ${join(gitDir, 'worktrees')}`,
    );
  return basename(admin);
}

/** A commit id as git prints one (SHA-1 or SHA-256). */
const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * A new worktree of the repository holding `projectDir` on an existing branch: the one an imported
 * session worked on (issue 28 part 4). `branch` and `base` come from the imported file, so they are
 * only names to look up: the folder is chosen here as for any session worktree, the branch must be
 * a valid name that the repository has, and `base` is kept only when it is a commit of this
 * repository the branch grew from (else the branch's fork point from HEAD stands in, and `note`
 * says so). Refused, saying what to do, when the branch is missing or checked out elsewhere.
 */
export async function worktreeOfBranch(req: {
  projectDir: string;
  branch: string;
  base: string;
  appHome: string;
  config: AppConfig['worktrees'];
}): Promise<NewWorktree & { note?: string }> {
  const { projectDir, branch, config } = req;
  const dir = await realpath(projectDir).catch(() => {
    throw new HostError('invalid_path', `the project folder ${projectDir} is not there`);
  });
  const start = await repoStart(dir);
  const valid = await git(['check-ref-format', '--branch', branch], start.top);
  if (!valid.ok || branch.startsWith('-'))
    throw new HostError(
      'invalid_branch',
      `the session's branch name '${branch}' is not a valid branch name: the file is damaged or was edited`,
    );
  const tip = await git(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`],
    start.top,
  );
  if (!tip.ok)
    throw new HostError(
      'branch_missing',
      `branch '${branch}' is not in the repository at ${start.top}, so the session's work is not here: fetch or push the branch into this repository (git fetch REMOTE ${branch}:${branch}), then import again`,
    );
  let base = req.base;
  let note: string | undefined;
  const known =
    COMMIT_ID.test(base) &&
    (await git(['merge-base', '--is-ancestor', base, `refs/heads/${branch}`], start.top)).ok;
  if (!known) {
    const fork = await git(['merge-base', 'HEAD', `refs/heads/${branch}`], start.top);
    base = fork.ok ? fork.stdout.trim() : tip.stdout.trim();
    note = `its base commit ${req.base.slice(0, 12)} is not one branch ${branch} grew from in this repository: the review compares with ${base.slice(0, 12)}, where the branch leaves ${start.headBranch}`;
  }
  const dest = await freeFolder(worktreesParent(config.dir, start.top), branch);
  checkLocation(dest, start.top, req.appHome);
  await addWorktree({ repoDir: start.top, branch, dest, newBranch: false }).catch((err: Error) => {
    if (/already (checked out|used by worktree)/.test(err.message))
      throw new HostError(
        'branch_checked_out',
        `branch '${branch}' is checked out in another worktree of ${start.top}; a session gets a worktree of its own: remove that worktree or switch it to another branch, then import again`,
      );
    throw err;
  });
  return {
    ...(await finishWorktree(start, dest, branch, base, config)),
    ...(note ? { note } : {}),
  };
}

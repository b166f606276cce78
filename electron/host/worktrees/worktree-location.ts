import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HostError } from '../rpc/host-error';
import { isInside } from '../fs/safe-path';
import { realPathLoose } from '../sandbox/real-path';
import { git } from '../projects/git';
import { slugify } from '../projects/registry-state';
import { DEFAULT_SESSION_TITLE } from '../sessions/session-title';
import {
  BESIDE_REPO_SUFFIX,
  BRANCH_NAME_TRIES,
  BRANCH_TITLE_CHARS,
  SESSION_BRANCH_PREFIX,
} from './constants';

// Where a session's worktree goes and what its branch is called. The folder is outside the
// repository's working tree (its own `git status`, watchers and the main checkout's sandbox rules
// never see it) and outside $MEWBO_HOME (all of which is denied to shells). By default it sits
// beside the repository, in `<repo>.worktrees/`: the same disk as the repository, and where the
// user's editor and terminal find it when the session's branch is opened for them.

/** The folder that holds a repository's session worktrees (`worktrees.dir` in configs/app.json). */
export function worktreesParent(setting: string, top: string): string {
  return setting
    ? join(setting, basename(top))
    : join(dirname(top), `${basename(top)}${BESIDE_REPO_SUFFIX}`);
}

/** Refuses a worktree folder inside the repository's checkout or the app's own state. */
export function checkLocation(dest: string, top: string, appHome: string): void {
  const real = realPathLoose(dest);
  if (isInside(realPathLoose(top), real))
    throw new HostError(
      'worktree_location',
      `${dest} is inside the repository's checkout ${top}; set worktrees.dir in configs/app.json to a folder outside it`,
    );
  if (isInside(realPathLoose(appHome), real))
    throw new HostError(
      'worktree_location',
      `${dest} is inside the app's own folder ${appHome}, which shells cannot reach; set worktrees.dir in configs/app.json to a folder outside it`,
    );
}

async function branchTaken(dir: string, branch: string): Promise<boolean> {
  return (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], dir)).ok;
}

/** A branch name the caller chose for the repository holding `dir`, refused when git would not take it or it is taken. */
export async function checkBranchName(dir: string, branch: string): Promise<void> {
  const valid = await git(['check-ref-format', '--branch', branch], dir);
  if (!valid.ok)
    throw new HostError(
      'invalid_branch',
      `'${branch}' is not a valid branch name (git check-ref-format): no spaces, '..', '~', '^', ':' or a trailing '.lock'`,
    );
  if (await branchTaken(dir, branch))
    throw new HostError(
      'branch_exists',
      `branch '${branch}' already exists in the repository at ${dir}: pick another name, or leave the name out and one is made for the session`,
    );
}

/**
 * A free branch name for a session in the repository holding `dir`: `mewbo/<title>`
 * (`mewbo/session` for an untitled one), with a counter when taken. Always a valid name (letters,
 * digits and single dashes after the prefix), so git need not be asked whether it is one.
 */
export async function pickBranchName(dir: string, title: string): Promise<string> {
  // Dots become dashes: `..`, a leading dot or a `.lock` end would each make the name invalid.
  const stem = slugify(title)
    .replace(/\./g, '-')
    .slice(0, BRANCH_TITLE_CHARS)
    .replace(/^-+|-+$/g, '');
  const named = stem && stem !== 'project' && slugify(DEFAULT_SESSION_TITLE) !== stem;
  const base = `${SESSION_BRANCH_PREFIX}${named ? stem : 'session'}`;
  // The taken names in one call, not one call per name tried (the tenth session would try ten).
  const listed = await git(
    ['for-each-ref', '--format=%(refname)', `refs/heads/${base}`, `refs/heads/${base}-*`],
    dir,
  );
  if (!listed.ok)
    throw new HostError('git_failed', `git for-each-ref failed in ${dir}: ${listed.error}`);
  const taken = new Set(listed.stdout.split('\n'));
  for (let i = 1; i <= BRANCH_NAME_TRIES; i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    if (!taken.has(`refs/heads/${name}`)) return name;
  }
  throw new HostError(
    'branch_exists',
    `every branch name from ${base} to ${base}-${BRANCH_NAME_TRIES} is taken in the repository at ${dir}: name the branch yourself`,
  );
}

/** A folder under `parent` for `branch` that does not exist yet. */
export async function freeFolder(parent: string, branch: string): Promise<string> {
  const stem = slugify(branch.replace(/\//g, '-'));
  for (let i = 1; i <= BRANCH_NAME_TRIES; i++) {
    const dest = join(parent, i === 1 ? stem : `${stem}-${i}`);
    if (!(await lstat(dest).catch(() => null))) return dest;
  }
  throw new HostError('exists', `folders ${join(parent, stem)} to -${BRANCH_NAME_TRIES} all exist`);
}

import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HostError } from '../rpc/host-error';
import { GIT_WRITE_TIMEOUT_MS } from './constants';
import { probeDir } from './disk';
import { git } from './git';

// The two registry actions that write a tree with git. Failures are HostErrors with git's own
// message, so the picker can show why.

export interface WorktreeRequest {
  /** A folder inside the repository (any of its worktrees). */
  repoDir: string;
  branch: string;
  dest: string;
  /** Start point for a new branch (default HEAD). */
  base?: string;
  /** Only a new branch will do: git refuses a name taken since the caller checked it. */
  newBranch?: boolean;
  /** The caller made or checked the name (check-ref-format) already: not asked again. */
  nameChecked?: boolean;
  /** The repository's filter overrides, when the caller read them already (GitOptions.filters). */
  filters?: readonly string[];
}

/** `git worktree add`: checks out `branch` if it exists (unless newBranch), else creates it from `base`. */
export async function addWorktree(req: WorktreeRequest): Promise<void> {
  const valid = req.nameChecked
    ? { ok: true }
    : await git(['check-ref-format', '--branch', req.branch], req.repoDir);
  if (!valid.ok)
    throw new HostError('invalid_branch', `'${req.branch}' is not a valid branch name`);
  if ((await probeDir(req.dest)) !== 'missing')
    throw new HostError('exists', `${req.dest} already exists`);
  await mkdir(dirname(req.dest), { recursive: true });
  const exists = req.newBranch
    ? { ok: false }
    : await git(['rev-parse', '--verify', '--quiet', `refs/heads/${req.branch}`], req.repoDir);
  const args = exists.ok
    ? ['worktree', 'add', '--', req.dest, req.branch]
    : ['worktree', 'add', '-b', req.branch, '--', req.dest, ...(req.base ? [req.base] : [])];
  const r = await git(
    args,
    req.repoDir,
    GIT_WRITE_TIMEOUT_MS,
    req.filters ? { filters: req.filters } : {},
  );
  if (!r.ok) throw new HostError('git_failed', `git worktree add failed: ${r.error}`);
}

/** `git clone URL DEST` for a repository registered without a checkout. */
export async function cloneRepository(url: string, dest: string): Promise<void> {
  if ((await probeDir(dest)) !== 'missing') throw new HostError('exists', `${dest} already exists`);
  await mkdir(dirname(dest), { recursive: true });
  const r = await git(['clone', '--', url, dest], dirname(dest), GIT_WRITE_TIMEOUT_MS);
  if (!r.ok) throw new HostError('git_failed', `git clone failed: ${r.error}`);
}

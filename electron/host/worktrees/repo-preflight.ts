import { relative, resolve } from 'node:path';
import { HostError } from '../rpc/host-error';
import { git } from '../projects/git';
import { REFUSAL_FILES_SHOWN } from './constants';

/** What a new session worktree is made from, once the repository is fit for one. */
export interface RepoStart {
  /** The checkout's top folder (real path). */
  top: string;
  /** The repository's common git directory (absolute). */
  gitDir: string;
  /** The commit HEAD is at: the session's branch starts here. */
  head: string;
  /** The branch HEAD is on. */
  headBranch: string;
  /** Where the project folder lies in the checkout ('' at its top): the session's root there. */
  subdir: string;
}

const lines = (s: string) => s.split('\n').filter((l) => l.length > 0);

/**
 * Checks that `dir` (a project folder) is in a git checkout a session worktree can branch from,
 * and refuses, saying what is wrong and what to do, when it is not: not a repository, a bare
 * repository, no commit yet, a detached HEAD, staged changes a new worktree would not carry.
 */
export async function repoStart(dir: string): Promise<RepoStart> {
  // One git call answers the common case (a checkout with a commit, on a branch); a repository
  // that fails it is asked again check by check, only to say what is wrong. The staged changes are
  // asked at the same time. Each spawn of git costs as much as a small checkout on a loaded
  // machine: the worktree-session bench counts them.
  const [one, staged] = await Promise.all([
    git(
      [
        'rev-parse',
        '--is-bare-repository',
        '--is-inside-work-tree',
        '--path-format=absolute',
        '--show-toplevel',
        '--git-common-dir',
        'HEAD^{commit}',
        // The branch HEAD is on (refs/heads/NAME), or HEAD itself when it is detached.
        '--symbolic-full-name',
        'HEAD',
      ],
      dir,
    ),
    // Plumbing: the index against HEAD, no work tree read (so no filter drivers to neutralize).
    git(['diff-index', '--cached', '--name-only', '--no-renames', '-z', 'HEAD'], dir),
  ]);
  const facts = one.ok ? lines(one.stdout) : [];
  const [top, gitDir, sha, head] =
    facts.length === 6 && facts[0] === 'false' && facts[1] === 'true'
      ? facts.slice(2).map((f, i) => (i < 2 ? resolve(f) : f))
      : [...(await diagnose(dir)), await symbolicHead(dir)];
  if (!head!.startsWith('refs/heads/'))
    throw new HostError(
      'detached_head',
      `HEAD of ${top} is detached at ${sha!.slice(0, 12)} (a rebase, a bisect, or a commit checked out): the session's branch would start from a commit no branch names. Finish what is in progress or check out a branch (git switch NAME), then try again`,
    );
  if (!staged.ok)
    throw new HostError('git_failed', `git diff-index --cached failed in ${top}: ${staged.error}`);
  const files = staged.stdout.split('\0').filter(Boolean);
  if (files.length > 0) {
    const shown = files.slice(0, REFUSAL_FILES_SHOWN).join(', ');
    const more =
      files.length > REFUSAL_FILES_SHOWN ? ` and ${files.length - REFUSAL_FILES_SHOWN} more` : '';
    throw new HostError(
      'staged_changes',
      `${top} has staged changes (${shown}${more}) that a new worktree would not carry: it starts from the last commit, ${sha!.slice(0, 12)}. Commit them or unstage them (git restore --staged .), then try again`,
    );
  }
  return {
    top: top!,
    gitDir: gitDir!,
    head: sha!,
    headBranch: head!.slice('refs/heads/'.length),
    subdir: relative(top!, resolve(dir)),
  };
}

/** `refs/heads/NAME` for the branch HEAD is on, `HEAD` when detached. */
async function symbolicHead(dir: string): Promise<string> {
  const r = await git(['rev-parse', '--symbolic-full-name', 'HEAD'], dir);
  return r.ok ? r.stdout.trim() : 'HEAD';
}

/**
 * Why `dir` is not a checkout with a commit, thrown as the refusal that says what to do; the
 * checkout's top, git directory and HEAD when the quick call failed for another reason.
 */
async function diagnose(dir: string): Promise<string[]> {
  const kind = await git(['rev-parse', '--is-bare-repository', '--is-inside-work-tree'], dir);
  if (!kind.ok)
    throw new HostError(
      'not_a_repository',
      `${dir} is not in a git repository, so a session cannot get its own worktree there: run git init and make a first commit, or start the session without a worktree`,
    );
  const [bare, inside] = lines(kind.stdout);
  if (bare === 'true' || inside !== 'true')
    throw new HostError(
      'bare_repository',
      `${dir} is a bare git repository (or its git directory): it has no checkout to branch from. Open one of its worktrees as the project, or clone it, and start the session there`,
    );
  const where = await git(
    ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'],
    dir,
  );
  if (!where.ok)
    throw new HostError('git_failed', `git rev-parse failed in ${dir}: ${where.error}`);
  const [top, gitDir] = lines(where.stdout).map((p) => resolve(p));
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], dir);
  if (!head.ok)
    throw new HostError(
      'no_commits',
      `the repository at ${top} has no commit yet, and a worktree starts from one: make a first commit (git add, git commit), then start the session in a worktree`,
    );
  return [top!, gitDir!, head.stdout.trim()];
}

import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8' });
}

/** A real repository with one commit on `main`, optionally an origin URL. */
export function makeRepo(parent: string, name: string, origin?: string): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(dir, 'README.md'), `# ${name}\n`);
  gitIn(dir, 'add', '.');
  gitIn(dir, 'commit', '--quiet', '-m', 'first');
  if (origin) gitIn(dir, 'remote', 'add', 'origin', origin);
  return realpathSync(dir);
}

/** `git worktree add -b branch` next to the repository. */
export function addWorktree(repo: string, dest: string, branch: string): string {
  gitIn(repo, 'worktree', 'add', '--quiet', '-b', branch, dest);
  return realpathSync(dest);
}

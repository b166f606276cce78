import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A repository as a user's on an SSH host: `files` committed on `main` by a user git knows
// (the test's remote home has no ~/.gitconfig, so the repository names one itself).

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

export function hostRepo(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Host User');
  git(dir, 'config', 'user.email', 'host@example.com');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
}

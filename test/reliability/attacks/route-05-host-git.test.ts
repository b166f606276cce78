import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp';

// Route 5: the host runs nothing a shell or a repository planted. The attacks: a `git` planted
// in node_modules/.bin (or any directory a shell can write) ahead on PATH, and a hostile
// .git/config whose fsmonitor, hooks and filter drivers run commands when git touches the tree.

let t: ReturnType<typeof tempDir> | undefined;
const saved = process.env.PATH;
afterEach(() => {
  process.env.PATH = saved;
  t?.cleanup();
  t = undefined;
});

function repoWithMarker() {
  t = tempDir('mewbo-git-attack-');
  const dir = realpathSync(t.dir);
  const repo = join(dir, 'repo');
  const marker = join(dir, 'pwned');
  mkdirSync(repo);
  const g = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', ...args], { cwd: repo });
  g('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n');
  g('add', '-A');
  g('commit', '-q', '-m', 'one');
  return { dir, repo, marker };
}

function plantGit(dir: string, marker: string): string {
  const bin = join(dir, 'project', 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh\necho planted > '${marker}'\nexec /usr/bin/git "$@"\n`,
  );
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

function hostile(repo: string, marker: string) {
  const hooks = join(repo, '.git', 'evil-hooks');
  mkdirSync(hooks);
  writeFileSync(join(hooks, 'post-checkout'), `#!/bin/sh\necho hook >> '${marker}'\n`);
  chmodSync(join(hooks, 'post-checkout'), 0o755);
  const run = `echo ran >> '${marker}'`;
  execFileSync('git', ['config', 'core.hooksPath', hooks], { cwd: repo });
  execFileSync('git', ['config', 'core.fsmonitor', `sh -c "${run}; exit 1"`], { cwd: repo });
  execFileSync('git', ['config', 'filter.evil.smudge', `sh -c "${run}; cat"`], { cwd: repo });
  execFileSync('git', ['config', 'filter.evil.clean', `sh -c "${run}; cat"`], { cwd: repo });
}

describe('route 5: host-run git', () => {
  test('unprotected: a PATH lookup of git runs the planted one', () => {
    const { dir, repo, marker } = repoWithMarker();
    const bin = plantGit(dir, marker);
    spawnSync('git', ['worktree', 'list'], {
      cwd: repo,
      env: { ...process.env, PATH: `${bin}:${saved}` },
    });
    expect(existsSync(marker)).toBe(true);
  });

  test('protected: the host resolves git at start from system dirs, never the planted one', async () => {
    const { dir, repo, marker } = repoWithMarker();
    process.env.PATH = `${plantGit(dir, marker)}:${saved}`;
    const { repoFacts } = await import('../../../electron/host/projects/git');
    const facts = await repoFacts(repo);
    expect(facts?.worktrees[0]?.branch).toBe('main');
    expect(existsSync(marker)).toBe(false);
  });

  test('unprotected: plain git status and worktree add run the repository’s fsmonitor, hooks and filters', () => {
    const { dir, repo, marker } = repoWithMarker();
    hostile(repo, marker);
    spawnSync('git', ['status'], { cwd: repo });
    spawnSync('git', ['worktree', 'add', '-q', join(dir, 'wt-plain')], { cwd: repo });
    expect(existsSync(marker)).toBe(true);
  });

  test('protected: the host’s git status and worktree add run none of them', async () => {
    const { dir, repo, marker } = repoWithMarker();
    hostile(repo, marker);
    const { git } = await import('../../../electron/host/projects/git');
    const { addWorktree } = await import('../../../electron/host/projects/git-ops');
    expect((await git(['status', '--porcelain'], repo)).ok).toBe(true);
    await addWorktree({ repoDir: repo, branch: 'feature', dest: join(dir, 'wt-host') });
    expect(existsSync(join(dir, 'wt-host', 'a.txt'))).toBe(true);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'nothing ran').toBe('nothing ran');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hostWorktreeGrant } from '../../../electron/host/remote/host-worktree-grant';
import { tempDir } from '../../helpers/temp';

// The remote part's grant for a shell in a session worktree on its host, worked out from the
// folders git made: given for the worktree's own entry, refused for anything that only looks
// like one (a main checkout, a worktree made elsewhere, a pointer whose entry does not name it back).

const base = tempDir('mewbo-host-wt-grant-');
const repo = () => join(realpathSync(base.dir), 'repo');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
const session = () => `${repo()}.worktrees/one`;
const elsewhere = () => join(realpathSync(base.dir), 'elsewhere');

beforeAll(() => {
  mkdirSync(join(repo(), 'sub'), { recursive: true });
  writeFileSync(join(repo(), 'sub', 'f.txt'), 'x\n');
  git(repo(), 'init', '-q', '-b', 'main');
  git(repo(), 'add', '-A');
  git(repo(), 'commit', '-q', '-m', 'initial');
  git(repo(), 'worktree', 'add', '-q', '-b', 'one', session());
  git(repo(), 'worktree', 'add', '-q', '-b', 'two', elsewhere());
});
afterAll(() => base.cleanup());

describe('hostWorktreeGrant', () => {
  it("gives a session worktree's shells its entry, objects, refs and logs, from any folder in it", () => {
    const gitDir = join(repo(), '.git');
    const grant = {
      checkout: repo(),
      gitWritable: ['objects', 'refs', 'logs', 'worktrees/one'].map((p) => join(gitDir, p)),
    };
    expect(hostWorktreeGrant(session(), session())).toEqual(grant);
    expect(hostWorktreeGrant(join(session(), 'sub'), session())).toEqual(grant);
  });

  it("gives nothing in a worktree other than the session's own, or to a session named in none", () => {
    git(repo(), 'worktree', 'add', '-q', '-b', 'three', `${repo()}.worktrees/three`);
    // Both are session worktrees the chain accepts, each for its own session only.
    expect(
      hostWorktreeGrant(`${repo()}.worktrees/three`, `${repo()}.worktrees/three`),
    ).toBeDefined();
    expect(hostWorktreeGrant(session(), `${repo()}.worktrees/three`)).toBeUndefined();
    expect(hostWorktreeGrant(join(session(), 'sub'), `${repo()}.worktrees/three`)).toBeUndefined();
    expect(hostWorktreeGrant(session(), join(base.dir, 'missing'))).toBeUndefined();
  });

  it('gives nothing to a main checkout, a folder outside git, or a worktree not beside its checkout', () => {
    expect(hostWorktreeGrant(repo(), repo())).toBeUndefined();
    expect(hostWorktreeGrant(join(repo(), 'sub'), repo())).toBeUndefined();
    expect(hostWorktreeGrant(base.dir, base.dir)).toBeUndefined();
    expect(hostWorktreeGrant(elsewhere(), elsewhere())).toBeUndefined();
    expect(hostWorktreeGrant(join(base.dir, 'missing'), session())).toBeUndefined();
  });

  it('gives nothing when the entry the .git file names does not name this worktree back', () => {
    const entry = join(repo(), '.git', 'worktrees', 'one');
    for (const link of ['gitdir', 'commondir']) {
      const own = readFileSync(join(entry, link), 'utf8');
      writeFileSync(join(entry, link), `${join(elsewhere(), '.git')}\n`);
      try {
        expect(hostWorktreeGrant(session(), session())).toBeUndefined();
      } finally {
        writeFileSync(join(entry, link), own);
      }
    }
    expect(hostWorktreeGrant(session(), session())).toBeDefined();
  });

  it('gives nothing for a .git file that is not one line naming the entry', () => {
    const pointer = join(session(), '.git');
    const own = readFileSync(pointer, 'utf8');
    for (const text of [`x${own}`, `${own.trim()}\nmore\n`]) {
      writeFileSync(pointer, text);
      try {
        expect(hostWorktreeGrant(session(), session())).toBeUndefined();
      } finally {
        writeFileSync(pointer, own);
      }
    }
  });

  it("gives nothing for an entry outside the git directory's worktrees/", () => {
    const entry = join(repo(), '.git', 'worktrees', 'one');
    const moved = join(repo(), '.git', 'elsewhere', 'one');
    const pointer = join(session(), '.git');
    const own = readFileSync(pointer, 'utf8');
    mkdirSync(moved, { recursive: true });
    writeFileSync(join(moved, 'commondir'), '../..\n');
    writeFileSync(join(moved, 'gitdir'), `${pointer}\n`);
    writeFileSync(pointer, `gitdir: ${moved}\n`);
    try {
      expect(hostWorktreeGrant(session(), session())).toBeUndefined();
    } finally {
      writeFileSync(pointer, own);
    }
    expect(hostWorktreeGrant(session(), session())?.gitWritable).toContain(entry);
  });

  it("gives nothing where the git directory is not a checkout's .git (a separate one)", () => {
    const top = realpathSync(base.dir);
    const store = join(top, 'sep', 'store');
    const own = join(top, 'sep-repo');
    mkdirSync(own);
    mkdirSync(dirname(store));
    writeFileSync(join(own, 'f.txt'), 'x\n');
    git(own, 'init', '-q', '-b', 'main', `--separate-git-dir=${store}`);
    git(own, 'add', '-A');
    git(own, 'commit', '-q', '-m', 'initial');
    // Beside the folder that holds the git directory, as the location check would read it.
    const wt = join(top, 'sep.worktrees', 'w');
    git(own, 'worktree', 'add', '-q', '-b', 'w', wt);
    expect(hostWorktreeGrant(wt, wt)).toBeUndefined();
  });
});

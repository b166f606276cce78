import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../projects/git-fixture';
import { worktreeWorld, type WorktreeWorld } from './worktree-world';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';

// Issue 28 part 1: a session in a new git worktree, made by the protocol's sessions.create, with
// real git, and what its shells may do there (real shells under the real sandbox).

let world: WorktreeWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const COMMIT = 'git -c user.name=a -c user.email=a@example.com commit --quiet';

describe('a session in its own worktree', () => {
  it('gets a new branch from HEAD in a folder beside the repository, its root there, the listed files copied', async () => {
    world = await worktreeWorld({ config: { worktrees: { copy: ['.env*', 'leak.txt'] } } });
    writeFileSync(join(world.repo, '.env.local'), 'TOKEN=1\n');
    symlinkSync('/etc/hostname', join(world.repo, 'leak.txt'));
    const head = gitIn(world.repo, 'rev-parse', 'HEAD').trim();
    const created = await world.invoke<{
      session: { id: string; root: string; worktree: SessionWorktree };
      copy: { copied: string[]; skipped: { path: string; reason: string }[] };
    }>('sessions.create', { project: world.key, title: 'Fix the parser', worktree: true });
    const wt = created.session.worktree;
    expect(wt).toMatchObject({
      branch: 'mewbo/fix-the-parser',
      base: head,
      checkout: world.repo,
      path: join(world.work, 'repo.worktrees', 'mewbo-fix-the-parser'),
    });
    expect(created.session.root).toBe(wt.path);
    expect(gitIn(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('mewbo/fix-the-parser');
    expect(gitIn(world.repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${wt.path}`);
    expect(readFileSync(join(wt.path, '.env.local'), 'utf8')).toBe('TOKEN=1\n');
    expect(created.copy.copied).toEqual(['.env.local']);
    expect(created.copy.skipped).toEqual([
      { path: 'leak.txt', reason: 'it leads outside the repository' },
    ]);
    expect(existsSync(join(wt.path, 'leak.txt'))).toBe(false);
    // The main checkout is as it was: still on main, nothing new in it.
    expect(gitIn(world.repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    // A second one gets its own branch; a named one takes the name.
    const second = await world.worktreeSession();
    const named = await world.worktreeSession({ branch: 'feature/x' });
    expect(second.worktree?.branch).toBe('mewbo/session');
    // A title git would refuse as a branch name (`..`, a `.lock` end) still names a valid one.
    const dotted = await world.invoke<{ session: { worktree: SessionWorktree } }>(
      'sessions.create',
      { project: world.key, title: '..Bump v1..2 to.lock', worktree: true },
    );
    expect(dotted.session.worktree.branch).toBe('mewbo/bump-v1--2-to-lock');
    expect(named.worktree).toMatchObject({ branch: 'feature/x' });
    expect(basename(named.worktree!.path)).toBe('feature-x');
    // The list and a restart of the host still know each session's worktree.
    const listed = await world.invoke<{ sessions: { id: string; worktree?: unknown }[] }>(
      'sessions.list',
      {},
    );
    expect(listed.sessions.find((s) => s.id === named.id)?.worktree).toEqual(named.worktree);
  });

  it('refuses, saying what is wrong and what to do: a taken branch, no commit yet, a detached HEAD, staged changes, a bare repository, no repository', async () => {
    world = await worktreeWorld();
    const w = world;
    gitIn(w.repo, 'branch', 'taken');
    await expect(w.worktreeSession({ branch: 'taken' })).rejects.toMatchObject({
      code: 'branch_exists',
      message: expect.stringContaining('pick another name'),
    });
    await expect(w.worktreeSession({ branch: 'bad name' })).rejects.toMatchObject({
      code: 'invalid_branch',
    });
    const openAs = async (path: string) =>
      (await w.invoke<{ project: { key: string } }>('projects.openFolder', { path })).project.key;
    const create = async (path: string) =>
      w.invoke('sessions.create', { project: await openAs(path), worktree: true });

    const empty = join(w.work, 'empty');
    gitIn(dirname(empty), 'init', '--quiet', empty);
    await expect(create(empty)).rejects.toMatchObject({
      code: 'no_commits',
      message: expect.stringContaining('make a first commit'),
    });
    const detached = makeRepo(w.work, 'detached');
    gitIn(detached, 'checkout', '--quiet', '--detach', 'HEAD');
    await expect(create(detached)).rejects.toMatchObject({
      code: 'detached_head',
      message: expect.stringContaining('check out a branch'),
    });
    const staged = makeRepo(w.work, 'staged');
    writeFileSync(join(staged, 'new.txt'), 'x\n');
    gitIn(staged, 'add', 'new.txt');
    await expect(create(staged)).rejects.toMatchObject({
      code: 'staged_changes',
      message: expect.stringContaining('new.txt'),
    });
    const bare = join(w.work, 'bare.git');
    gitIn(w.work, 'clone', '--quiet', '--bare', w.repo, bare);
    await expect(create(bare)).rejects.toMatchObject({ code: 'bare_repository' });
    const plain = join(w.work, 'plain');
    mkdirSync(plain);
    await expect(create(plain)).rejects.toMatchObject({
      code: 'not_a_repository',
      message: expect.stringContaining('git init'),
    });
    await expect(
      w.invoke('sessions.create', { project: null, worktree: true }),
    ).rejects.toMatchObject({ code: 'no_project' });
    // Nothing was left behind by the refusals: no folder, no branch.
    expect(existsSync(join(w.work, 'repo.worktrees'))).toBe(false);
    expect(gitIn(w.repo, 'branch', '--list').trim().split('\n')).toHaveLength(2);
  });

  it("a shell commits in its own worktree, reads the checkout, and cannot write the checkout, its git config or hooks, or another session's worktree", async () => {
    world = await worktreeWorld();
    const a = await world.worktreeSession();
    const b = await world.worktreeSession();
    const wa = a.worktree!.path;
    const wb = b.worktree!.path;
    writeFileSync(join(wb, 'b.txt'), 'b\n');

    const commit = await world.sh(
      a.id,
      `echo change >> README.md && git add -A && ${COMMIT} -m mine && git log --format=%s -1`,
    );
    expect(commit).toMatchObject({ code: 0, text: expect.stringContaining('mine') });
    expect(gitIn(world.repo, 'log', '--format=%s', '-1', a.worktree!.branch).trim()).toBe('mine');
    expect(await world.sh(a.id, `cat ${join(world.repo, 'README.md')}`)).toMatchObject({
      code: 0,
      text: expect.stringContaining('# repo'),
    });
    const gitDir = join(world.repo, '.git');
    for (const target of [
      join(world.repo, 'README.md'),
      join(world.repo, 'planted.txt'),
      join(gitDir, 'config'),
      join(gitDir, 'hooks', 'post-checkout'),
      join(gitDir, 'HEAD'),
      join(wb, 'b.txt'),
      join(wb, 'planted.txt'),
    ]) {
      const r = await world.sh(a.id, `echo pwned >> ${target}`);
      expect(r.code, target).not.toBe(0);
    }
    expect((await world.sh(a.id, `cat ${join(wb, 'b.txt')}`)).code).not.toBe(0);
    expect(readFileSync(join(world.repo, 'README.md'), 'utf8')).toBe('# repo\n');
    expect(readFileSync(join(gitDir, 'config'), 'utf8')).not.toContain('pwned');
    expect(existsSync(join(gitDir, 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(join(wb, 'b.txt'), 'utf8')).toBe('b\n');
    // Its own worktree is its own: the shell wrote there.
    expect(readFileSync(join(wa, 'README.md'), 'utf8')).toContain('change');
  });

  it('stays in its worktree: switch_project is refused for it', async () => {
    world = await worktreeWorld();
    const a = await world.worktreeSession();
    await expect(world.host.projectTools.switchSession(a.id, world.key)).rejects.toMatchObject({
      code: 'worktree_session',
    });
    expect((await world.host.sessions.get(a.id)).meta.root).toBe(a.worktree!.path);
  });
});

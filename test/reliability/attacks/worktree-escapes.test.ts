import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn } from '../../integration/projects/git-fixture';
import { worktreeWorld, type WorktreeWorld } from '../../integration/worktrees/worktree-world';

// Issue 28: what a session in its own worktree (or a client naming its branch) could make the host
// write outside the places it means to. Each attack runs first against the naive path (the name
// joined into a folder; the session's changed files written into the checkout by their names),
// then against the app.

let world: WorktreeWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

describe('a session worktree cannot escape', () => {
  it('a branch name with ../ or a leading dash makes no folder outside the worktrees folder and no branch', async () => {
    world = await worktreeWorld();
    const w = world;
    const parent = join(w.work, 'repo.worktrees');
    // Control: a branch name joined into the folder, as a naive creator would, lands outside.
    const naive = join(parent, '../../escaped-by-name');
    gitIn(w.repo, 'worktree', 'add', '--quiet', '-b', 'control', '--', naive);
    expect(existsSync(join(w.work, '..', 'escaped-by-name'))).toBe(true);
    gitIn(w.repo, 'worktree', 'remove', '--force', naive);
    gitIn(w.repo, 'branch', '-D', 'control');

    const before = gitIn(w.repo, 'branch', '--list');
    for (const branch of ['../../escaped', 'a/../../b', '-D', '--detach', '-b', 'HEAD']) {
      await expect(
        w.invoke('sessions.create', { project: w.key, worktree: { branch } }),
      ).rejects.toMatchObject({ code: 'invalid_branch' });
    }
    expect(existsSync(join(w.work, '..', 'escaped'))).toBe(false);
    expect(existsSync(parent) ? readdirSync(parent) : []).toEqual([]);
    expect(gitIn(w.repo, 'branch', '--list')).toBe(before);
    expect(gitIn(w.repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });

  it("Apply writes nothing through a link in the checkout: the session's new folder named like the user's untracked link to outside", async () => {
    world = await worktreeWorld();
    const w = world;
    // The user's checkout has an untracked link `out` to a folder outside the repository.
    const victim = join(w.work, 'victim');
    mkdirSync(victim);
    symlinkSync(victim, join(w.repo, 'out'));
    const s = await w.worktreeSession();
    // The session makes a real folder of that name in its worktree, with a file in it.
    expect((await w.sh(s.id, 'mkdir out && echo planted > out/authorized_keys')).code).toBe(0);
    const review = await w.invoke<{ files: { path: string }[] }>('worktrees.review', { id: s.id });
    expect(review.files.map((f) => f.path)).toEqual(['out/authorized_keys']);

    // Control: writing the changed files into the checkout by name follows the link out.
    const naiveVictim = join(w.work, 'naive-victim');
    mkdirSync(naiveVictim);
    const naiveCheckout = join(w.work, 'naive-checkout');
    mkdirSync(naiveCheckout);
    symlinkSync(naiveVictim, join(naiveCheckout, 'out'));
    for (const f of review.files) writeFileSync(join(naiveCheckout, f.path), 'planted\n');
    expect(readdirSync(naiveVictim)).toEqual(['authorized_keys']);

    await expect(w.invoke('worktrees.apply', { id: s.id })).rejects.toMatchObject({
      code: 'apply_conflict',
      message: expect.stringContaining(
        'out/authorized_keys (a link in the checkout leads outside it)',
      ),
    });
    expect(readdirSync(victim)).toEqual([]);
  });
});

import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn } from '../projects/git-fixture';
import { removeSessionWorktree } from '../../../electron/host/worktrees/remove-worktree';
import { worktreeWorld, type WorktreeWorld } from './worktree-world';

// Issue 28 part 4, with real git: what becomes of a session's worktree when the session is
// deleted (kept with its branch, or removed, never with work in it the user has not confirmed
// losing), and git's records of worktrees removed by hand, dropped when the app starts.

let world: WorktreeWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const branchExists = (repo: string, branch: string) =>
  gitIn(repo, 'branch', '--list', branch).trim() !== '';

describe('a worktree session deleted', () => {
  it('keeps its worktree and branch unless asked to remove them', async () => {
    const w = (world = await worktreeWorld());
    const s = await w.worktreeSession();
    await w.invoke('sessions.delete', { id: s.id });
    expect(existsSync(s.worktree!.path)).toBe(true);
    expect(branchExists(w.repo, s.worktree!.branch)).toBe(true);
  });

  it('never loses uncommitted work without a confirm: refused whole and listed, then removed once confirmed', async () => {
    const w = (world = await worktreeWorld());
    const [victim, control] = await Promise.all([w.worktreeSession(), w.worktreeSession()]);
    for (const s of [victim, control]) writeFileSync(join(s.worktree!.path, 'draft.txt'), 'mine\n');

    // Control: removing a worktree the naive way (the removal Discard runs) takes the work with it.
    await removeSessionWorktree(control.worktree!);
    expect(existsSync(join(control.worktree!.path, 'draft.txt'))).toBe(false);

    // Deleting the session with its worktree, unconfirmed: refused, nothing removed.
    const refused = await w.invoke('sessions.delete', { id: victim.id, worktree: 'remove' }).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(refused?.code).toBe('worktree_has_work');
    expect(refused?.message).toContain('draft.txt (not committed)');
    expect(readFileSync(join(victim.worktree!.path, 'draft.txt'), 'utf8')).toBe('mine\n');
    expect(branchExists(w.repo, victim.worktree!.branch)).toBe(true);
    const listed = await w.invoke<{ sessions: { id: string }[] }>('sessions.list', {});
    expect(listed.sessions.map((x) => x.id)).toContain(victim.id);

    // A commit of its own counts as work too, once the file is committed on its branch.
    const sh = await w.sh(
      victim.id,
      'git add -A && git -c user.name=a -c user.email=a@example.com commit --quiet -m draft',
    );
    expect(sh.code).toBe(0);
    await expect(
      w.invoke('sessions.delete', { id: victim.id, worktree: 'remove' }),
    ).rejects.toThrow(/commit [0-9a-f]{12} draft/);

    // Confirmed: the worktree, git's record and the branch go, with the session.
    await w.invoke('sessions.delete', { id: victim.id, worktree: 'remove', discard_work: true });
    expect(existsSync(victim.worktree!.path)).toBe(false);
    expect(branchExists(w.repo, victim.worktree!.branch)).toBe(false);
    expect(gitIn(w.repo, 'worktree', 'list')).not.toContain(victim.worktree!.path);
    const after = await w.invoke<{ sessions: { id: string }[] }>('sessions.list', {});
    expect(after.sessions.map((x) => x.id)).not.toContain(victim.id);
  });

  it('removes a worktree with nothing in it that no other branch has, without a confirm', async () => {
    const w = (world = await worktreeWorld());
    const s = await w.worktreeSession();
    await w.invoke('sessions.delete', { id: s.id, worktree: 'remove' });
    expect(existsSync(s.worktree!.path)).toBe(false);
    expect(branchExists(w.repo, s.worktree!.branch)).toBe(false);
  });
});

describe('the app starting', () => {
  it("drops git's record of a session worktree whose folder was removed by hand", async () => {
    const w = (world = await worktreeWorld());
    const s = await w.worktreeSession();
    rmSync(s.worktree!.path, { recursive: true, force: true });
    // Control: git still records it (its branch is held by the vanished worktree).
    expect(gitIn(w.repo, 'worktree', 'list', '--porcelain')).toContain(s.worktree!.path);
    await w.restart();
    expect(gitIn(w.repo, 'worktree', 'list', '--porcelain')).not.toContain(s.worktree!.path);
    // The branch is free again: git lets it be deleted.
    gitIn(w.repo, 'branch', '-D', s.worktree!.branch);
  });
});

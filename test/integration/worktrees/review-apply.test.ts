import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn } from '../projects/git-fixture';
import { worktreeWorld, type WorktreeWorld } from './worktree-world';

// Issue 28 part 3, through the protocol with real git and real shells: two sessions in two
// worktrees of one repository change the same file at once; the checkout is untouched until
// Apply; the second Apply names the conflict and changes nothing; Discard leaves no worktree,
// branch or lock behind.

let world: WorktreeWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const COMMIT = 'git -c user.name=a -c user.email=a@example.com commit --quiet';
const README = '# repo\n';

/** A world whose repository has a committed notes.txt with `text`. */
async function worldWithNotes(text: string): Promise<WorktreeWorld> {
  world = await worktreeWorld();
  writeFileSync(join(world.repo, 'notes.txt'), text);
  gitIn(world.repo, 'add', 'notes.txt');
  gitIn(world.repo, 'commit', '--quiet', '-m', 'notes');
  return world;
}

describe('the review of sessions in their own worktrees', () => {
  it('two sessions edit one file differently at once; Apply lands the first, refuses the second whole, Discard leaves nothing', async () => {
    const w = await worldWithNotes('line 1\nline 2\nline 3\n');
    const [a, b] = await Promise.all([w.worktreeSession(), w.worktreeSession()]);
    // At once, each in its own worktree: A commits its edit, B leaves its edit and a new file
    // uncommitted.
    const [ra, rb] = await Promise.all([
      w.sh(
        a.id,
        `sed -i 's/line 2/line two (A)/' notes.txt && git add -A && ${COMMIT} -m 'A edits'`,
      ),
      w.sh(b.id, `sed -i 's/line 2/line deux (B)/' notes.txt && echo new > b-only.txt`),
    ]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    expect(readFileSync(join(w.repo, 'notes.txt'), 'utf8')).toBe('line 1\nline 2\nline 3\n');
    expect(gitIn(w.repo, 'status', '--porcelain')).toBe('');

    const review = await w.invoke<{
      files: { path: string; status: string; additions: number; deletions: number }[];
      commits: { subject: string }[];
      uncommitted: string[];
    }>('worktrees.review', { id: a.id });
    expect(review.files).toEqual([{ path: 'notes.txt', status: 'M', additions: 1, deletions: 1 }]);
    expect(review.commits.map((c) => c.subject)).toEqual(['A edits']);
    expect(review.uncommitted).toEqual([]);
    const reviewB = await w.invoke<{ files: { path: string }[]; uncommitted: string[] }>(
      'worktrees.review',
      { id: b.id },
    );
    expect(reviewB.files.map((f) => f.path)).toEqual(['b-only.txt', 'notes.txt']);
    expect(reviewB.uncommitted).toEqual(['b-only.txt', 'notes.txt']);
    const { patch } = await w.invoke<{ patch: string }>('worktrees.diff', {
      id: b.id,
      path: 'notes.txt',
    });
    expect(patch).toContain('-line 2\n+line deux (B)\n');
    expect(patch).not.toContain('b-only.txt');

    expect(await w.invoke('worktrees.apply', { id: a.id })).toEqual({ files: ['notes.txt'] });
    const applied = readFileSync(join(w.repo, 'notes.txt'), 'utf8');
    expect(applied).toBe('line 1\nline two (A)\nline 3\n');
    // As uncommitted edits: nothing staged, HEAD where it was.
    expect(gitIn(w.repo, 'status', '--porcelain')).toBe(' M notes.txt\n');

    await expect(w.invoke('worktrees.apply', { id: b.id })).rejects.toMatchObject({
      code: 'apply_conflict',
      message: expect.stringMatching(/notes\.txt \(both changed the same lines\)/),
    });
    expect(readFileSync(join(w.repo, 'notes.txt'), 'utf8')).toBe(applied);
    expect(existsSync(join(w.repo, 'b-only.txt'))).toBe(false);

    const loss = await w.invoke<{ uncommitted: string[]; commits: { subject: string }[] }>(
      'worktrees.loss',
      { id: a.id },
    );
    expect(loss).toMatchObject({ uncommitted: [], commits: [{ subject: 'A edits' }] });
    await w.invoke('worktrees.discard', { id: a.id });
    const wt = a.worktree!;
    expect(existsSync(wt.path)).toBe(false);
    expect(gitIn(w.repo, 'worktree', 'list', '--porcelain')).not.toContain(`worktree ${wt.path}\n`);
    expect(gitIn(w.repo, 'branch', '--list', wt.branch)).toBe('');
    expect(existsSync(join(w.repo, '.git', 'worktrees', wt.name))).toBe(false);
    const locks = readdirSync(join(w.repo, '.git'), { recursive: true }).filter((p) =>
      String(p).endsWith('.lock'),
    );
    expect(locks).toEqual([]);
    const listed = await w.invoke<{
      sessions: { id: string; worktree?: { removed_at?: number } }[];
    }>('sessions.list', {});
    expect(listed.sessions.find((s) => s.id === a.id)?.worktree?.removed_at).toBeGreaterThan(0);
    await expect(w.invoke('worktrees.review', { id: a.id })).rejects.toMatchObject({
      code: 'worktree_removed',
    });
  });

  it('Apply merges three ways: the checkout changed other lines of the file, and both changes are kept', async () => {
    const w = await worldWithNotes('a\nb\nc\nd\ne\nf\ng\n');
    const s = await w.worktreeSession();
    expect(
      (await w.sh(s.id, `sed -i 's/^b$/B (session)/' notes.txt && chmod +x notes.txt`)).code,
    ).toBe(0);
    writeFileSync(join(w.repo, 'notes.txt'), 'a\nb\nc\nd\ne\nf\nG (user)\n');
    expect(await w.invoke('worktrees.apply', { id: s.id })).toEqual({ files: ['notes.txt'] });
    expect(readFileSync(join(w.repo, 'notes.txt'), 'utf8')).toBe(
      'a\nB (session)\nc\nd\ne\nf\nG (user)\n',
    );
    expect(gitIn(w.repo, 'diff', '--summary')).toContain('mode change 100644 => 100755');
  });

  it('Commit puts everything not committed on the session branch', async () => {
    world = await worktreeWorld();
    const w = world;
    const s = await w.worktreeSession();
    await w.sh(s.id, 'echo more >> README.md && echo x > added.txt');
    const { sha } = await w.invoke<{ sha: string }>('worktrees.commit', {
      id: s.id,
      message: 'Add notes\n\nBody.',
    });
    expect(gitIn(w.repo, 'log', '-1', '--format=%H %s', s.worktree!.branch).trim()).toBe(
      `${sha} Add notes`,
    );
    const review = await w.invoke<{ uncommitted: string[]; commits: unknown[] }>(
      'worktrees.review',
      { id: s.id },
    );
    expect(review).toMatchObject({ uncommitted: [], commits: [{ sha }] });
    await expect(
      w.invoke('worktrees.commit', { id: s.id, message: 'again' }),
    ).rejects.toMatchObject({ code: 'nothing_to_commit' });
    expect(readFileSync(join(w.repo, 'README.md'), 'utf8')).toBe(README);
  });
});

describe('Apply onto a checkout that moved on', () => {
  it('the checkout committed and edited since: a clean file applies only with the rest, one conflict leaves every file as it was', async () => {
    world = await worktreeWorld();
    const w = world;
    writeFileSync(join(w.repo, 'a.txt'), 'a1\na2\na3\na4\na5\n');
    writeFileSync(join(w.repo, 'b.txt'), 'b1\nb2\nb3\n');
    gitIn(w.repo, 'add', '.');
    gitIn(w.repo, 'commit', '--quiet', '-m', 'a and b');
    const s = await w.worktreeSession();
    const edits =
      "sed -i 's/a2/A2 (session)/' a.txt && sed -i 's/b2/B2 (session)/' b.txt && echo n > new.txt";
    expect((await w.sh(s.id, edits)).code).toBe(0);
    // Meanwhile the user commits on the checkout's branch (it moves past the session's base) and
    // leaves an uncommitted edit of the same line of b.txt.
    writeFileSync(join(w.repo, 'a.txt'), 'a1\na2\na3\na4\na5 (user)\n');
    gitIn(w.repo, 'commit', '--quiet', '-am', 'user moves on');
    writeFileSync(join(w.repo, 'b.txt'), 'b1\nb2 (user, uncommitted)\nb3\n');
    const head = gitIn(w.repo, 'rev-parse', 'HEAD');
    await expect(w.invoke('worktrees.apply', { id: s.id })).rejects.toMatchObject({
      code: 'apply_conflict',
      message: expect.stringMatching(
        /^nothing was applied.*b\.txt \(both changed the same lines\)/,
      ),
    });
    expect(readFileSync(join(w.repo, 'a.txt'), 'utf8')).toBe('a1\na2\na3\na4\na5 (user)\n');
    expect(readFileSync(join(w.repo, 'b.txt'), 'utf8')).toBe('b1\nb2 (user, uncommitted)\nb3\n');
    expect(existsSync(join(w.repo, 'new.txt'))).toBe(false);
    expect(gitIn(w.repo, 'rev-parse', 'HEAD')).toBe(head);
    // The user sets the edit aside: the same Apply now lands all three, merged with the commit.
    gitIn(w.repo, 'checkout', '--', 'b.txt');
    expect(
      (await w.invoke<{ files: string[] }>('worktrees.apply', { id: s.id })).files.sort(),
    ).toEqual(['a.txt', 'b.txt', 'new.txt']);
    expect(readFileSync(join(w.repo, 'a.txt'), 'utf8')).toBe(
      'a1\nA2 (session)\na3\na4\na5 (user)\n',
    );
    expect(gitIn(w.repo, 'status', '--porcelain')).toBe(' M a.txt\n M b.txt\n?? new.txt\n');
  });
});

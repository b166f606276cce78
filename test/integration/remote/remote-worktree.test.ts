import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editBlockTurn, startRemoteRun, type RemoteRun } from '../../helpers/remote-run';
import { tempDir } from '../../helpers/temp';
import { Harness } from '../agent/harness';

// A session of a project on an SSH host in its own git worktree (issue #29 part 3), against a real
// sshd whose commands see another repository at the project's path (a bind mount, as two machines
// would): the worktree is made, reviewed, committed, applied and discarded by the host's git,
// through the protocol and headless. This computer's repository of the same path is never
// touched: no branch, no worktree, no change to its files.

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function repo(dir: string, branch: string, notes: string): void {
  writeFileSync(join(dir, 'notes.txt'), notes);
  git(dir, 'init', '-q', '-b', branch);
  // The host's user is someone to git (the remote home has no ~/.gitconfig).
  git(dir, 'config', 'user.name', 'Host User');
  git(dir, 'config', 'user.email', 'host@example.com');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
}

const desk = tempDir('mewbo-rwt-desk-');
const hostRepo = tempDir('mewbo-rwt-host-');
let remote: RemoteRun;
let h: Harness;
const url = () => remote.urlOf(desk.dir);

beforeAll(async () => {
  repo(desk.dir, 'desktop-copy', 'on the desktop\n');
  repo(hostRepo.dir, 'main', 'one\ntwo\nthree\n');
  remote = await startRemoteRun({ hostView: { [desk.dir]: hostRepo.dir } });
  h = await Harness.start({
    config: {
      remote: { ssh_config: remote.sshd.clientConfig },
      remote_projects: { far: { url: url() } },
      permission_mode: 'auto',
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await remote?.stop();
  desk.cleanup();
  hostRepo.cleanup();
});

/** The desktop's repository as it was made: one branch, no worktree, its file as it was. */
function expectDesktopUntouched(): void {
  expect(git(desk.dir, 'branch', '--format=%(refname:short)')).toBe('desktop-copy');
  expect(git(desk.dir, 'worktree', 'list', '--porcelain')).not.toContain('.worktrees');
  expect(git(desk.dir, 'status', '--porcelain')).toBe('');
}

describe('a worktree session of a project on an SSH host', () => {
  it("is made, reviewed, committed, applied (refused on a conflict) and discarded by the host's git", async () => {
    const { session } = await h.invoke('sessions.create', {
      project: 'far',
      title: 'remote work',
      worktree: { branch: 'feature/far' },
    });
    const wt = session.worktree!;
    // Beside the host's repository, as a local one would be beside its own.
    expect(wt).toMatchObject({
      branch: 'feature/far',
      path: `${desk.dir}.worktrees/feature-far`,
      checkout: desk.dir,
    });
    expect(session.remote).toBe(url());
    expect(session.root).toBe(wt.path);
    expect(git(hostRepo.dir, 'branch', '--list', 'feature/far')).toContain('feature/far');
    expectDesktopUntouched();

    // The agent edits on the host, in the worktree.
    h.script.push(editBlockTurn('notes.txt', 'two', 'TWO'), { text: 'Done.' });
    const from = await h.send(session.id, 'shout two');
    await h.waitRunEnd(session.id, from, 90_000);
    expect(readFileSync(join(wt.path, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(join(hostRepo.dir, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    // The sidebar's count, read by the host's git when the run stopped.
    await expect
      .poll(
        async () =>
          (await h.invoke('sessions.list', {})).sessions.find((s) => s.id === session.id)?.worktree
            ?.changed_files,
        { timeout: 30_000 },
      )
      .toBe(1);

    const review = await h.invoke('worktrees.review', { id: session.id });
    expect(review.files).toEqual([{ path: 'notes.txt', status: 'M', additions: 1, deletions: 1 }]);
    expect(review.uncommitted).toEqual(['notes.txt']);
    const { patch } = await h.invoke('worktrees.diff', { id: session.id, path: 'notes.txt' });
    expect(patch).toContain('-two\n+TWO');

    const { sha } = await h.invoke('worktrees.commit', { id: session.id, message: 'Shout two' });
    expect(git(hostRepo.dir, 'rev-parse', 'feature/far')).toBe(sha);
    expect(git(hostRepo.dir, 'log', '-1', '--format=%s', 'feature/far')).toBe('Shout two');

    const applied = await h.invoke('worktrees.apply', { id: session.id });
    expect(applied.files).toEqual(['notes.txt']);
    expect(readFileSync(join(hostRepo.dir, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expectDesktopUntouched();

    // The host's checkout changes the same line its own way: refused whole, the file named.
    writeFileSync(join(hostRepo.dir, 'notes.txt'), 'one\nzwei\nthree\n');
    const refused = await h.invokeError('worktrees.apply', { id: session.id });
    expect(refused.code).toBe('apply_conflict');
    // The host's checkout is named as a folder of the host, never as a path that reads local.
    expect(refused.message).toContain(`nothing was applied to ${remote.urlOf(wt.checkout)}:`);
    expect(refused.issues).toEqual([{ path: 'notes.txt', message: 'both changed the same lines' }]);
    expect(readFileSync(join(hostRepo.dir, 'notes.txt'), 'utf8')).toBe('one\nzwei\nthree\n');

    // Open folder names the host's folder instead of opening anything here.
    const folder = await h.invokeError('worktrees.openFolder', { id: session.id });
    expect(folder.code).toBe('remote_folder');
    expect(folder.message).toContain(wt.path);

    const loss = await h.invoke('worktrees.loss', { id: session.id });
    expect(loss.commits.map((c) => c.subject)).toEqual(['Shout two']);
    await h.invoke('worktrees.discard', { id: session.id });
    expect(existsSync(wt.path)).toBe(false);
    expect(git(hostRepo.dir, 'branch', '--list', 'feature/far')).toBe('');
    expect(git(hostRepo.dir, 'worktree', 'list', '--porcelain')).not.toContain('.worktrees');
    expectDesktopUntouched();
  }, 240_000);

  it('mewbo run --project ssh://... --worktree works headless, and sessions diff and discard reach the host', async () => {
    remote.fake.script.push(editBlockTurn('notes.txt', 'three', 'THREE'), { text: 'Done.' });
    const r = await remote.mewbo([
      'run',
      '--project',
      url(),
      '--worktree',
      'headless',
      '--permission-mode',
      'auto',
      'shout three',
    ]);
    expect(r.code).toBe(0);
    const path = `${desk.dir}.worktrees/headless`;
    expect(r.stderr).toContain(`mewbo run: worktree ${path} on branch headless`);
    expect(readFileSync(join(path, 'notes.txt'), 'utf8')).toContain('THREE');
    expect(git(hostRepo.dir, 'branch', '--list', 'headless')).toContain('headless');
    expectDesktopUntouched();
    const id = /mewbo run: session (\S+)/.exec(r.stderr)![1]!;

    const diff = await remote.mewbo(['sessions', 'diff', id]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('+THREE');
    const discard = await remote.mewbo(['sessions', 'discard', id, '--yes']);
    expect(discard.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(git(hostRepo.dir, 'branch', '--list', 'headless')).toBe('');
    expectDesktopUntouched();
  }, 240_000);
});

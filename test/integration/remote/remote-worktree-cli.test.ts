import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, hostRepo } from '../../helpers/host-repo';
import { startRemoteRun, type RemoteRun } from '../../helpers/remote-run';

// `mewbo sessions diff|apply|discard` (cli/session-worktree-commands.ts) on a session of a
// project on an SSH host in its own worktree, through the built CLI against a real sshd: the
// agent commits in the worktree on the host (its shell may: remote/host-worktree-grant.ts), apply
// lands that work on the host's checkout, and a checkout that changed the same lines is refused
// whole, naming the file, with nothing of the session's work on the checkout.

let remote: RemoteRun;
const repo = () => join(remote.sshd.dir, 'cli-repo');
const worktree = () => `${repo()}.worktrees/cli-apply`;
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

beforeAll(async () => {
  remote = await startRemoteRun();
  hostRepo(repo(), { 'notes.txt': 'one\ntwo\nthree\n', 'other.txt': 'alpha\n' });
}, 120_000);
afterAll(async () => {
  await remote?.stop();
});

describe("mewbo sessions on a remote worktree session's work", () => {
  it("applies the worktree's commits onto the host's checkout, refusing a conflict whole", async () => {
    remote.fake.script.push(
      {
        toolCalls: [
          {
            name: 'aider_shell_tool',
            args: {
              command:
                "sed -i s/two/TWO/ notes.txt && echo beta >> other.txt && git commit -q -am 'Shout two, add beta'",
            },
          },
        ],
      },
      { text: 'Committed.' },
    );
    const run = await remote.runOn(repo(), 'shout two and add beta', ['--worktree', 'cli-apply']);
    expect(run.code).toBe(0);
    const id = /mewbo run: session (\S+)/.exec(run.stderr)![1]!;
    expect(git(repo(), 'log', '-1', '--format=%s', 'cli-apply')).toBe('Shout two, add beta');
    expect(git(worktree(), 'status', '--porcelain')).toBe('');

    const stat = await remote.mewbo(['sessions', 'diff', id, '--stat']);
    expect(stat.code).toBe(0);
    expect(stat.stdout).toBe('M\t1\t1\tnotes.txt\nM\t1\t0\tother.txt\n');

    // The host's checkout changed the same line its own way: nothing of the session's lands.
    writeFileSync(join(repo(), 'notes.txt'), 'one\nzwei\nthree\n');
    const refused = await remote.mewbo(['sessions', 'apply', id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`nothing was applied to ${remote.urlOf(repo())}:`);
    expect(refused.stderr).toContain('notes.txt');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(read(repo(), 'notes.txt')).toBe('one\nzwei\nthree\n');
    expect(read(repo(), 'other.txt')).toBe('alpha\n');
    expect(git(repo(), 'status', '--porcelain')).toBe('M notes.txt');

    // Put back, the same apply lands both files, uncommitted, on the checkout's own branch.
    git(repo(), 'checkout', '--', 'notes.txt');
    const applied = await remote.mewbo(['sessions', 'apply', id]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toBe(
      `Applied to ${remote.urlOf(repo())} (uncommitted):\n  notes.txt\n  other.txt\n`,
    );
    expect(read(repo(), 'notes.txt')).toBe('one\nTWO\nthree\n');
    expect(read(repo(), 'other.txt')).toBe('alpha\nbeta\n');
    expect(git(repo(), 'log', '-1', '--format=%s', 'main')).toBe('initial');
    const again = await remote.mewbo(['sessions', 'apply', id]);
    expect(again.stdout).toBe(
      `Nothing to apply: ${remote.urlOf(repo())} already has the session's changes.\n`,
    );

    const discard = await remote.mewbo(['sessions', 'discard', id, '--yes']);
    expect(discard.code).toBe(0);
    expect(discard.stdout).toContain(
      `Removes the worktree ${remote.urlOf(worktree())} and the branch`,
    );
    expect(discard.stdout).toContain('Lost: 1 commit(s) no other branch has:');
    expect(discard.stdout).toContain('Shout two, add beta');
    expect(git(repo(), 'branch', '--list', 'cli-apply')).toBe('');
  }, 240_000);

  it('lists the session with its folders as ssh:// URLs of its host, never as folders here', async () => {
    remote.fake.script.push({ text: 'Nothing to do.' });
    const run = await remote.runOn(repo(), 'look around', ['--worktree', 'listed']);
    expect(run.code).toBe(0);
    const id = /mewbo run: session (\S+)/.exec(run.stderr)![1]!;
    const place = remote.urlOf(`${repo()}.worktrees/listed`);
    const listed = await remote.mewbo(['sessions', 'list']);
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(`${id}\t`));
    expect(row?.split('\t')[3]).toBe(place);
    expect(row).toMatch(/\tworktree listed$/);
    const json = await remote.mewbo(['sessions', 'list', '--json']);
    const entry = (JSON.parse(json.stdout) as { id: string }[]).find((r) => r.id === id);
    expect(entry).toMatchObject({ project: place, worktree: place, branch: 'listed' });
    // --project takes the URL; the same path as a folder of this computer is another place.
    const there = await remote.mewbo(['sessions', 'list', '--project', place]);
    expect(
      there.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual([id]);
    const here = await remote.mewbo([
      'sessions',
      'list',
      '--project',
      `${repo()}.worktrees/listed`,
    ]);
    expect(here.stdout).toBe('');
  }, 240_000);
});

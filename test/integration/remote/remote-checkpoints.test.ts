import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines } from '../../helpers/mewbo-cli';
import { startRemoteRun, type RemoteRun } from '../../helpers/remote-run';

// Checkpoints of a session on a project on an SSH host are taken and restored on that host
// (issue #29 part 3), against a real sshd: the shadow store is under the remote part's own home
// there, nothing is snapshotted in the desktop's $MEWBO_HOME, and a rewind puts the host's
// files back.

type Line = { type: string; phase?: string; commit?: string; message?: string };

let remote: RemoteRun;
beforeAll(async () => {
  remote = await startRemoteRun();
});
afterAll(() => remote?.stop());

describe('checkpoints of a project on an SSH host', () => {
  it('are taken on the host, and a rewind puts the remote files back', async () => {
    const { sshd, fake } = remote;
    const project = join(sshd.remoteHome, 'ckpt');
    mkdirSync(project);
    writeFileSync(join(project, 'a.txt'), 'one\n');
    fake.script.push(
      {
        toolCalls: [
          {
            name: 'aider_edit_block_tool',
            args: {
              content: 'a.txt\n```\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n',
            },
          },
        ],
      },
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo made > new.txt' } }] },
      { text: 'Done.' },
    );
    const r = await remote.mewbo([
      'run',
      '--project',
      remote.urlOf(project),
      '--permission-mode',
      'auto',
      'change one to two and make new.txt',
    ]);
    expect(r.code).toBe(0);
    const id = /session (s_[a-z0-9]+)/.exec(r.stderr)?.[1];
    const lines = jsonLines<Line>(r.stdout);
    expect(lines.filter((l) => l.type === 'error')).toEqual([]);
    expect(lines.filter((l) => l.type === 'checkpoint').map((l) => l.phase)).toEqual([
      'before',
      'after',
    ]);
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('two\n');
    // The store is the remote part's, on the host; the desktop's home has none.
    expect(existsSync(join(remote.home, 'checkpoints'))).toBe(false);
    expect(readdirSync(join(sshd.remoteHome, '.mewbo-remote', 'home', 'checkpoints'))).toHaveLength(
      1,
    );

    const rw = await remote.mewbo([
      'sessions',
      'rewind',
      id!,
      '--to-turn',
      '1',
      '--files-only',
      '--yes',
    ]);
    expect(rw.stderr).toBe('');
    expect(rw.code).toBe(0);
    expect(rw.stdout).toMatch(/restore\s+a\.txt/);
    expect(rw.stdout).toMatch(/delete\s+new\.txt/);
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(project, 'new.txt'))).toBe(false);
    expect(existsSync(join(remote.home, 'checkpoints'))).toBe(false);
  });
});

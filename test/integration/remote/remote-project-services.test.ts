import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/host-process';
import { jsonLines } from '../../helpers/mewbo-cli';
import { editBlockTurn, startRemoteRun, type RemoteRun } from '../../helpers/remote-run';
import { tempDir } from '../../helpers/temp';

// What a session on a project on an SSH host has besides its tools (issue #29 part 3), against a
// real sshd whose PATH has a pyright of its own (the host "has pyright"; the desktop's is another):
// checkpoints taken and restored on the host, passive diagnostics from a server running there.

type Line = {
  type: string;
  phase?: string;
  commit?: string;
  message?: string;
  text?: string;
  errors?: number;
  file?: string;
};

let remote: RemoteRun;
/** Only the host's PATH has this folder: its pyright-langserver notes each start, then runs the real one. */
const hostBin = tempDir('mewbo-remote-bin-');
const serverStarts = join(hostBin.dir, 'starts.log');
beforeAll(async () => {
  writeFileSync(
    join(hostBin.dir, 'pyright-langserver'),
    `#!/bin/sh\necho started >> '${serverStarts}'\nexec '${join(REPO_ROOT, 'node_modules', '.bin', 'pyright-langserver')}' "$@"\n`,
    { mode: 0o755 },
  );
  remote = await startRemoteRun({
    env: { PATH: `${hostBin.dir}:${process.env.PATH}` },
    // The desktop has no pyright: a note can only come from the host's (whose config is its own).
    config: { agent: { lsp: { servers: { pyright: { disabled: true } } } } },
  });
});
afterAll(async () => {
  await remote?.stop();
  hostBin.cleanup();
});

describe('a project on an SSH host', () => {
  it('has its checkpoints taken on the host, and a rewind puts the remote files back', async () => {
    const { sshd, fake } = remote;
    const project = join(sshd.remoteHome, 'ckpt');
    mkdirSync(project);
    writeFileSync(join(project, 'a.txt'), 'one\n');
    fake.script.push(
      editBlockTurn('a.txt', 'one', 'two'),
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo made > new.txt' } }] },
      { text: 'Done.' },
    );
    const r = await remote.runOn(project, 'change one to two and make new.txt');
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

  it('gets passive diagnostics after an edit from the language server on the host', async () => {
    const { sshd, fake } = remote;
    const project = join(sshd.remoteHome, 'py');
    mkdirSync(project);
    writeFileSync(join(project, 'pyproject.toml'), '[project]\nname = "demo"\nversion = "0"\n');
    writeFileSync(join(project, 'app.py'), 'count: int = 1\n');
    fake.script.push(
      // A first lsp_tool call starts the server there, so the passive wait after the edit is warm.
      {
        toolCalls: [{ name: 'lsp_tool', args: { operation: 'diagnostics', file_path: 'app.py' } }],
      },
      editBlockTurn('app.py', 'count: int = 1', 'count: int = "one"'),
      { text: 'Oops.' },
    );
    const r = await remote.runOn(project, 'make count a word');
    expect(r.code).toBe(0);
    const diag = jsonLines<Line>(r.stdout).filter((l) => l.type === 'diagnostics');
    expect(diag).toHaveLength(1);
    expect(diag[0]).toMatchObject({ file: 'app.py', errors: 1 });
    expect(diag[0]!.text).toMatch(/1:14 error reportAssignmentType/);
    expect(fake.requests.at(-1)!.transcript).toMatch(/reportAssignmentType/);
    // The server that answered is the host's (the desktop's PATH has no such folder).
    expect(readFileSync(serverStarts, 'utf8')).toBe('started\n');
  });
});

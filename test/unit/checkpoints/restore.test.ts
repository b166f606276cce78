import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  applyRestore,
  type RestorePlan,
  type RestoreWrite,
} from '../../../electron/host/checkpoints/restore';
import { CheckpointError } from '../../../electron/host/checkpoints/shadow-git';
import { tempDir } from '../../helpers/temp';

// What a rewind does to a project's files (restore.ts), on real files in temp folders: exact bytes
// and modes back, links restored as links and never written through, deletes that touch only the
// path named, folders made and emptied ones removed, and a failure that leaves nothing half-done.
// The same restore under a racing folder swap: test/reliability/attacks/rewind-races.test.ts.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A project root and a folder beside it that no restore may touch (real paths). */
function world() {
  const t = tempDir('mewbo-restore-');
  cleanups.push(t.cleanup);
  const base = realpathSync(t.dir);
  const root = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

function put(root: string, rel: string, body = 'now\n', mode = 0o644): string {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, body, { mode });
  return p;
}

const file = (path: string, body: string | Buffer, mode = '100644'): RestoreWrite => ({
  path,
  mode,
  data: Buffer.isBuffer(body) ? body : Buffer.from(body),
});
const link = (path: string, to: string): RestoreWrite => ({
  path,
  mode: '120000',
  data: Buffer.from(to),
});
const plan = (p: Partial<RestorePlan>): RestorePlan => ({ writes: [], deletes: [], ...p });

/** Every path under `dir`, folders marked with a trailing slash. */
function tree(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return lstatSync(p).isDirectory()
        ? [`${name}/`, ...tree(p).map((c) => `${name}/${c}`)]
        : [name];
    });
}

const modeOf = (p: string) => statSync(p).mode & 0o777;

async function failure(p: Promise<unknown>): Promise<CheckpointError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CheckpointError);
  expect((err as CheckpointError).code).toBe('restore_failed');
  return err as CheckpointError;
}

describe('restoring files', () => {
  test('files come back byte for byte with their modes, missing folders are made, no temp file is left', async () => {
    const { root } = world();
    put(root, 'top.txt', 'edited\n', 0o600);
    put(root, 'run.sh', '#!/bin/sh\necho edited\n', 0o644);
    const bytes = Buffer.from([0, 1, 0x0d, 0x0a, 0xff, 0x0a]);
    await applyRestore(
      root,
      plan({
        writes: [
          file('top.txt', 'original\n'),
          file('run.sh', '#!/bin/sh\necho original\n', '100755'),
          file('a/b/data.bin', bytes),
        ],
      }),
    );
    expect(readFileSync(join(root, 'top.txt'), 'utf8')).toBe('original\n');
    expect(modeOf(join(root, 'top.txt'))).toBe(0o644);
    expect(readFileSync(join(root, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho original\n');
    expect(modeOf(join(root, 'run.sh'))).toBe(0o755);
    expect(readFileSync(join(root, 'a/b/data.bin'))).toEqual(bytes);
    expect(modeOf(join(root, 'a/b/data.bin'))).toBe(0o644);
    expect(tree(root)).toEqual(['a/', 'a/b/', 'a/b/data.bin', 'run.sh', 'top.txt']);
  });

  test('a symlink comes back as a link with its own text, replacing the file that stands there', async () => {
    const { root } = world();
    put(root, 'sub/current', 'a file now\n');
    await applyRestore(root, plan({ writes: [link('sub/current', '../elsewhere/target')] }));
    expect(lstatSync(join(root, 'sub/current')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'sub/current'))).toBe('../elsewhere/target');
    expect(tree(root)).toEqual(['sub/', 'sub/current']);
  });

  test('a file restored over a symlink replaces the link and never writes through it', async () => {
    const { root, outside } = world();
    writeFileSync(join(outside, 'secret'), 'other project\n');
    symlinkSync(join(outside, 'secret'), join(root, 'notes.txt'));
    await applyRestore(root, plan({ writes: [file('notes.txt', 'restored\n')] }));
    expect(lstatSync(join(root, 'notes.txt')).isFile()).toBe(true);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('restored\n');
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('other project\n');
  });

  test('an empty folder standing where a file or a link goes is replaced by it', async () => {
    const { root } = world();
    mkdirSync(join(root, 'was-file'));
    mkdirSync(join(root, 'was-link'));
    await applyRestore(
      root,
      plan({ writes: [file('was-file', 'a file again\n'), link('was-link', 'was-file')] }),
    );
    expect(readFileSync(join(root, 'was-file'), 'utf8')).toBe('a file again\n');
    expect(readlinkSync(join(root, 'was-link'))).toBe('was-file');
  });

  test('a file that became a folder: the file is deleted first, then its folder made and filled', async () => {
    const { root } = world();
    put(root, 'cfg', 'a file now\n');
    await applyRestore(
      root,
      plan({ deletes: ['cfg'], writes: [file('cfg/a.txt', 'a\n'), file('cfg/deep/b.txt', 'b\n')] }),
    );
    expect(tree(root)).toEqual(['cfg/', 'cfg/a.txt', 'cfg/deep/', 'cfg/deep/b.txt']);
  });

  test('a folder reached through a symlink out of the project is refused, and nothing outside changes', async () => {
    const { root, outside } = world();
    writeFileSync(join(outside, 'kept'), 'other project\n');
    symlinkSync(outside, join(root, 'sub'));
    const through = `restored path 'sub' leads outside the project root through a symlink (to ${outside})`;
    const write = await failure(applyRestore(root, plan({ writes: [file('sub/new.txt', 'x\n')] })));
    expect(write.message).toBe(
      `could not stage the restored files (nothing was replaced): ${through}`,
    );
    const del = await failure(applyRestore(root, plan({ deletes: ['sub/kept'] })));
    expect(del.message).toBe(`restore stopped part way: ${through}`);
    expect(tree(outside)).toEqual(['kept']);
    expect(readFileSync(join(outside, 'kept'), 'utf8')).toBe('other project\n');
  });
});

describe('deleting files', () => {
  test('deleting a symlink removes the link, never what it points to', async () => {
    const { root, outside } = world();
    writeFileSync(join(outside, 'kept'), 'other project\n');
    symlinkSync(outside, join(root, 'to-dir'));
    symlinkSync(join(outside, 'kept'), join(root, 'to-file'));
    await applyRestore(root, plan({ deletes: ['to-dir', 'to-file'] }));
    expect(tree(root)).toEqual([]);
    expect(tree(outside)).toEqual(['kept']);
  });

  test('a path already gone, or whose folder is gone, is no error', async () => {
    const { root } = world();
    put(root, 'stays.txt');
    await applyRestore(root, plan({ deletes: ['gone.txt', 'no-folder/gone.txt'] }));
    expect(tree(root)).toEqual(['stays.txt']);
  });

  test('folders a delete emptied are removed, deepest first, up to the root; one still holding something stays', async () => {
    const { root } = world();
    put(root, 'a/b/c/made.txt');
    put(root, 'a/keep.txt');
    put(root, 'x/y/made.txt');
    put(root, 'top.txt');
    await applyRestore(root, plan({ deletes: ['a/b/c/made.txt', 'x/y/made.txt', 'top.txt'] }));
    expect(tree(root)).toEqual(['a/', 'a/keep.txt']);
    await applyRestore(root, plan({ deletes: ['a/keep.txt'] }));
    expect(existsSync(root)).toBe(true);
    expect(tree(root)).toEqual([]);
  });

  test('a folder emptied by deletes in it and below it goes too, whatever the order of the deletes', async () => {
    const { root } = world();
    put(root, 'a/x.txt');
    put(root, 'a/b/c/y.txt');
    await applyRestore(root, plan({ deletes: ['a/x.txt', 'a/b/c/y.txt'] }));
    expect(tree(root)).toEqual([]);
  });

  test('an empty folder where a deleted file was is removed; one holding files is kept and the restore stops', async () => {
    const { root } = world();
    mkdirSync(join(root, 'empty'));
    put(root, 'full/user-file');
    put(root, 'other.txt', 'edited\n');
    const err = await failure(
      applyRestore(
        root,
        plan({
          deletes: ['empty', 'nowhere/gone.txt', 'full'],
          writes: [file('other.txt', 'original\n')],
        }),
      ),
    );
    expect(err.message).toMatch(/^restore stopped part way: .*ENOTEMPTY/);
    // `nowhere` was not made to delete a file in it.
    expect(tree(root)).toEqual(['full/', 'full/user-file', 'other.txt']);
    // The write staged before the failure is dropped, its temp file with it.
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('edited\n');
  });

  test('a folder holding files where a restored file goes is kept with its files', async () => {
    const { root } = world();
    put(root, 'spot/user-file');
    put(root, 'spot2/user-file');
    const err = await failure(applyRestore(root, plan({ writes: [file('spot', 'x\n')] })));
    expect(err.message).toMatch(/^restore stopped part way: .*ENOTEMPTY/);
    const linkErr = await failure(applyRestore(root, plan({ writes: [link('spot2', 'x')] })));
    expect(linkErr.message).toMatch(/^restore stopped part way: .*ENOTEMPTY/);
    expect(tree(root)).toEqual(['spot/', 'spot/user-file', 'spot2/', 'spot2/user-file']);
  });
});

describe('a restore that cannot be staged changes nothing', () => {
  test('a path that is not relative to the project is refused before anything is done', async () => {
    const { root } = world();
    const victim = put(root, 'victim.txt', 'kept\n');
    put(root, 'made.txt');
    const write = await failure(applyRestore(root, plan({ writes: [file(victim, 'x\n')] })));
    expect(write.message).toBe(`restored path '${victim}' is not relative to the project`);
    const del = await failure(applyRestore(root, plan({ deletes: ['made.txt', victim] })));
    expect(del.message).toBe(`restored path '${victim}' is not relative to the project`);
    expect(tree(root)).toEqual(['made.txt', 'victim.txt']);
    expect(readFileSync(victim, 'utf8')).toBe('kept\n');
  });

  test('a file standing where a folder is needed: no write, no delete, no temp file, and the error says where', async () => {
    const { root } = world();
    put(root, 'edited.txt', 'edited\n');
    put(root, 'made.txt', 'made by the agent\n');
    put(root, 'blocker', 'a file\n');
    const err = await failure(
      applyRestore(
        root,
        plan({
          deletes: ['made.txt'],
          writes: [
            file('edited.txt', 'original\n'),
            link('link', 'edited.txt'),
            file('blocker/inner.txt', 'x\n'),
          ],
        }),
      ),
    );
    expect(err.message).toBe(
      'could not stage the restored files (nothing was replaced): blocker has a file where the restore needs a folder',
    );
    expect(tree(root)).toEqual(['blocker', 'edited.txt', 'made.txt']);
    expect(readFileSync(join(root, 'edited.txt'), 'utf8')).toBe('edited\n');
  });

  test('a file where a folder is needed deeper down is named by its folder', async () => {
    const { root } = world();
    put(root, 'a/blocker', 'a file\n');
    const err = await failure(
      applyRestore(root, plan({ writes: [file('a/blocker/b/c.txt', 'x\n')] })),
    );
    expect(err.message).toBe(
      'could not stage the restored files (nothing was replaced): a/blocker/b has a file where the restore needs a folder',
    );
    expect(tree(root)).toEqual(['a/', 'a/blocker']);
  });
});

describe.skipIf(process.platform !== 'linux')('descriptors', () => {
  const open = () => readdirSync('/proc/self/fd').length;

  test('every folder descriptor a restore opens is closed, whether it succeeds or fails', async () => {
    const { root } = world();
    put(root, 'blocker');
    const before = open();
    for (let i = 0; i < 5; i++) {
      put(root, 'gone/made.txt');
      await applyRestore(
        root,
        plan({
          deletes: ['gone/made.txt'],
          writes: [file(`n${i}/a.txt`, 'x\n'), link(`n${i}/l`, 'a.txt')],
        }),
      );
      await failure(
        applyRestore(root, plan({ writes: [file('ok.txt', 'x\n'), file('blocker/x', '')] })),
      );
    }
    expect(open()).toBe(before);
  });
});

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInDir,
  openDirInRoot,
  openForRead,
  PathChangedError,
} from '../../../electron/host/fs/safe-open';
import { tempDir } from '../../helpers/temp';

// safe-open's other promises: an open never blocks or follows a planted link, a directory handle
// only names single components below itself, and creating directories never leaves the root.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function dirs() {
  const a = tempDir('mewbo-soe-');
  const b = tempDir('mewbo-soe-out-');
  cleanups.push(a.cleanup, b.cleanup);
  return { root: realpathSync(a.dir), outside: realpathSync(b.dir) };
}

describe.skipIf(process.platform !== 'linux')('safe-open: edges', () => {
  it('reads a regular file through a verified descriptor, with its stat', async () => {
    const { root } = dirs();
    writeFileSync(join(root, 'f'), 'hello');
    const { handle, stat } = await openForRead(root, join(root, 'f'));
    try {
      expect(stat.isFile()).toBe(true);
      expect(stat.size).toBe(5n);
      expect((await handle.readFile()).toString()).toBe('hello');
    } finally {
      await handle.close();
    }
  });

  it('a FIFO opens at once (non-blocking), so the caller can refuse it from its stat', async () => {
    const { root } = dirs();
    execFileSync('mkfifo', [join(root, 'fifo')]);
    const { handle, stat } = await openForRead(root, join(root, 'fifo'));
    await handle.close();
    expect(stat.isFIFO()).toBe(true);
  });

  it('a missing file is the plain ENOENT, not a path change', async () => {
    const { root } = dirs();
    const err = await openForRead(root, join(root, 'nope')).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(PathChangedError);
    expect(err).toMatchObject({ code: 'ENOENT' });
  });

  it('the refusal says what changed and that nothing was read or written', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(outside, 's'), 'x');
    symlinkSync(join(outside, 's'), join(root, 'f'));
    const err = (await openForRead(root, join(root, 'f')).catch(
      (e: unknown) => e,
    )) as PathChangedError;
    expect(err).toBeInstanceOf(PathChangedError);
    expect(err.name).toBe('PathChangedError');
    expect(err.code).toBe('path_changed');
    expect(err.path).toBe(join(root, 'f'));
    expect(err.message).toBe(
      `${join(root, 'f')} changed while it was being opened (a directory or link along it was replaced); nothing was read or written`,
    );
  });

  it('a path that is inside the root but not the one the descriptor reaches is refused', async () => {
    const { root } = dirs();
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', 'f'), 'x');
    // An alias inside the root: the descriptor's path is root/real/f, not the path asked for.
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    await expect(openForRead(root, join(root, 'alias', 'f'))).rejects.toBeInstanceOf(
      PathChangedError,
    );
    // A file outside the root, asked for by its own real path, is refused too.
    const other = dirs();
    writeFileSync(join(other.root, 'g'), 'x');
    await expect(openForRead(root, join(other.root, 'g'))).rejects.toBeInstanceOf(PathChangedError);
  });

  it('a directory handle names only single components below itself', async () => {
    const { root } = dirs();
    const dir = await openDirInRoot(root, root);
    try {
      expect(dir.path).toBe(root);
      expect(dir.self).toMatch(/^\/proc\/self\/fd\/\d+$/);
      expect(dir.child('a.txt')).toBe(`${dir.self}/a.txt`);
      for (const bad of ['..', '.', '', 'a/b', '/etc'])
        expect(() => dir.child(bad)).toThrow(`not a single path component: ${bad}`);
      await dir.sync();
    } finally {
      await dir.close();
      await dir.close();
    }
  });

  it('creating directories stops at the root: a missing root or a path outside is an error', async () => {
    const { root, outside } = dirs();
    await expect(
      openDirInRoot(join(root, 'gone'), join(root, 'gone', 'a'), true),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(openDirInRoot(root, join(outside, 'new', 'dir'), true)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(join(outside, 'new'))).toBe(false);
  });

  it('a file where a directory should be is ENOTDIR; a symlink there is a path change', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(root, 'file'), 'x');
    await expect(openDirInRoot(root, join(root, 'file'), true)).rejects.toMatchObject({
      code: 'ENOTDIR',
      message: `ENOTDIR: not a directory, ${join(root, 'file')}`,
    });
    await expect(openDirInRoot(root, join(root, 'file', 'sub'), true)).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
    symlinkSync(join(outside), join(root, 'link'));
    await expect(openDirInRoot(root, join(root, 'link'), true)).rejects.toBeInstanceOf(
      PathChangedError,
    );
  });

  it('an existing directory is opened as it is; two creators of the same path both succeed', async () => {
    const { root } = dirs();
    mkdirSync(join(root, 'exists'));
    const d0 = await openDirInRoot(root, join(root, 'exists'), true);
    expect(d0.path).toBe(join(root, 'exists'));
    await d0.close();
    const [d1, d2] = await Promise.all([
      openDirInRoot(root, join(root, 'x', 'y', 'z'), true),
      openDirInRoot(root, join(root, 'x', 'y', 'z'), true),
    ]);
    expect([d1.path, d2.path]).toEqual([join(root, 'x', 'y', 'z'), join(root, 'x', 'y', 'z')]);
    await d1.close();
    await d2.close();
  });

  it('a directory cannot be created where a file cannot be: the error is the real one', async () => {
    const { root } = dirs();
    if (process.getuid?.() === 0) return; // root writes anywhere
    mkdirSync(join(root, 'ro'), { mode: 0o500 });
    await expect(openDirInRoot(root, join(root, 'ro', 'sub'), true)).rejects.toMatchObject({
      code: 'EACCES',
    });
  });

  it('creates a file exclusively in a verified directory, never through a planted link', async () => {
    const { root, outside } = dirs();
    const dir = await openDirInRoot(root, root);
    try {
      const h = await createInDir(dir, 'new.tmp', 0o600);
      await h.writeFile('x');
      await h.close();
      expect(readFileSync(join(root, 'new.tmp'), 'utf8')).toBe('x');
      await expect(createInDir(dir, 'new.tmp', 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
      // O_EXCL refuses any name that exists, a dangling symlink included: nothing is created
      // where it points.
      symlinkSync(join(outside, 'planted'), join(root, 'link.tmp'));
      await expect(createInDir(dir, 'link.tmp', 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
      expect(existsSync(join(outside, 'planted'))).toBe(false);
    } finally {
      await dir.close();
    }
  });

  it('a recheck passes while the directory stays where it was verified', async () => {
    const { root } = dirs();
    mkdirSync(join(root, 'd'));
    const dir = await openDirInRoot(root, join(root, 'd'));
    try {
      await expect(dir.recheck()).resolves.toBeUndefined();
    } finally {
      await dir.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('safe-open: descriptors', () => {
  const fdsOn = (path: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false;
      }
    }).length;

  it('opening a directory without create never creates it', async () => {
    const { root } = dirs();
    await expect(openDirInRoot(root, join(root, 'missing'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(join(root, 'missing'))).toBe(false);
  });

  it('closing a directory handle releases its descriptor', async () => {
    const { root } = dirs();
    mkdirSync(join(root, 'd'));
    const dir = await openDirInRoot(root, join(root, 'd'));
    expect(fdsOn(join(root, 'd'))).toBe(1);
    await dir.close();
    expect(fdsOn(join(root, 'd'))).toBe(0);
  });
});

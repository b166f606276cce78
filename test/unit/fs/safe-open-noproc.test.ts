import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile } from '../../../electron/host/fs/atomic-write';
import {
  openDirInRoot,
  openForRead,
  PathChangedError,
  readDirInRoot,
  setProcFdDir,
} from '../../../electron/host/fs/safe-open';
import { tempDir } from '../../helpers/temp';

// safe-open where /proc cannot name descriptors (not Linux, or /proc not mounted): the fallback
// compares the descriptor's dev/ino with what the path names after the open, and where the path
// really leads. Run on Linux for real by pointing the descriptor directory somewhere else.

const cleanups: (() => void)[] = [];
let previous: string;
beforeEach(() => {
  previous = setProcFdDir('/nonexistent-mewbo-proc/fd');
});
afterEach(() => {
  setProcFdDir(previous);
  for (const c of cleanups.splice(0)) c();
});

function dirs() {
  const a = tempDir('mewbo-np-');
  const b = tempDir('mewbo-np-out-');
  cleanups.push(a.cleanup, b.cleanup);
  return { root: realpathSync(a.dir), outside: realpathSync(b.dir) };
}

describe('safe-open without /proc', () => {
  it('reads a file and writes one atomically', async () => {
    const { root } = dirs();
    writeFileSync(join(root, 'f'), 'hello');
    const { handle } = await openForRead(root, join(root, 'f'));
    expect((await handle.readFile()).toString()).toBe('hello');
    await handle.close();
    await atomicWriteFile(root, join(root, 'sub', 'g'), 'new');
    expect(readFileSync(join(root, 'sub', 'g'), 'utf8')).toBe('new');
    expect(readdirSync(join(root, 'sub'))).toEqual(['g']);
  });

  it('a directory handle names children by path', async () => {
    const { root } = dirs();
    const dir = await openDirInRoot(root, root);
    expect(dir.self).toBe(root);
    expect(dir.child('x')).toBe(`${root}/x`);
    await dir.close();
  });

  it('refuses a file reached through a directory swapped for a link out of the root', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(outside, 'secret'), 'x');
    symlinkSync(outside, join(root, 'sub'));
    await expect(openForRead(root, join(root, 'sub', 'secret'))).rejects.toBeInstanceOf(
      PathChangedError,
    );
  });

  it('reads a directory through the fallback, and refuses one reached through a link out of the root', async () => {
    const { root, outside } = dirs();
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'a'), '');
    const names = await readDirInRoot(root, join(root, 'd'), async (entries, self) => {
      expect(self).toBe(join(root, 'd'));
      return entries.map((e) => e.name);
    });
    expect(names).toEqual(['a']);
    writeFileSync(join(outside, 'secret'), 'x');
    symlinkSync(outside, join(root, 'sub'));
    // The last component is a real directory; the link is the one before it.
    mkdirSync(join(outside, 'inner'));
    await expect(
      readDirInRoot(root, join(root, 'sub', 'inner'), async (entries) => entries),
    ).rejects.toBeInstanceOf(PathChangedError);
  });

  it('refuses a symlink planted as the last component', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(outside, 'secret'), 'x');
    symlinkSync(join(outside, 'secret'), join(root, 'f'));
    await expect(openForRead(root, join(root, 'f'))).rejects.toBeInstanceOf(PathChangedError);
  });

  it('a directory moved away, or replaced by another, fails the recheck', async () => {
    const { root } = dirs();
    mkdirSync(join(root, 'd'));
    const moved = await openDirInRoot(root, join(root, 'd'));
    await moved.recheck();
    renameSync(join(root, 'd'), join(root, 'd-old'));
    await expect(moved.recheck()).rejects.toBeInstanceOf(PathChangedError);
    // Another directory now has the name: same path, different inode.
    mkdirSync(join(root, 'd'));
    await expect(moved.recheck()).rejects.toBeInstanceOf(PathChangedError);
    await moved.close();
    const fresh = await openDirInRoot(root, join(root, 'd'));
    await expect(fresh.recheck()).resolves.toBeUndefined();
    await fresh.close();
  });

  it('a descriptor directory that exists but names nothing refuses every open (fail closed)', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(root, 'f'), 'x');
    setProcFdDir(outside); // a directory, but not one that names descriptors
    await expect(openForRead(root, join(root, 'f'))).rejects.toBeInstanceOf(PathChangedError);
  });

  it('a descriptor directory whose entries are not links is no /proc: the fallback is used', async () => {
    const { root, outside } = dirs();
    writeFileSync(join(outside, '0'), 'not a link');
    writeFileSync(join(root, 'f'), 'x');
    setProcFdDir(outside);
    const { handle } = await openForRead(root, join(root, 'f'));
    await handle.close();
  });
});

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirInRoot, openForRead, PathChangedError } from '../../../electron/host/fs/safe-open';
import { atomicWriteFile } from '../../../electron/host/fs/atomic-write';
import { makeFixture, type Fixture } from '../tools/harness';

// The opens of safe-open without a racer: each check on its own, with the state a racer would
// leave between safe-path's check and the open planted by hand.

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

describe.skipIf(process.platform !== 'linux')('safe-open', () => {
  it('refuses a symlink planted where a file was resolved', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.outside, 'secret'), 'x');
    symlinkSync(join(fx.outside, 'secret'), join(fx.root, 'f'));
    await expect(openForRead(fx.root, join(fx.root, 'f'))).rejects.toBeInstanceOf(PathChangedError);
  });

  it('refuses a descriptor that is not the resolved path (a directory above was swapped)', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.outside, 'secret'), 'x');
    // The state after a swap: "sub" now leads to the other project.
    symlinkSync(fx.outside, join(fx.root, 'sub'));
    await expect(openForRead(fx.root, join(fx.root, 'sub', 'secret'))).rejects.toBeInstanceOf(
      PathChangedError,
    );
  });

  it('never creates a directory through a planted symlink', async () => {
    fx = makeFixture();
    symlinkSync(fx.outside, join(fx.root, 'a'));
    await expect(
      openDirInRoot(fx.root, join(fx.root, 'a', 'new', 'deeper'), true),
    ).rejects.toThrow();
    expect(readdirSync(fx.outside)).toEqual([]);
  });

  it('creates missing directories inside the root through their verified parents', async () => {
    fx = makeFixture();
    const dir = await openDirInRoot(fx.root, join(fx.root, 'x', 'y'), true);
    await dir.close();
    expect(existsSync(join(fx.root, 'x', 'y'))).toBe(true);
  });

  it('a directory moved after it was opened fails the recheck before a rename', async () => {
    fx = makeFixture();
    mkdirSync(join(fx.root, 'd'));
    const dir = await openDirInRoot(fx.root, join(fx.root, 'd'));
    try {
      await dir.recheck();
      renameSync(join(fx.root, 'd'), join(fx.root, 'moved'));
      await expect(dir.recheck()).rejects.toBeInstanceOf(PathChangedError);
    } finally {
      await dir.close();
    }
  });

  it('an atomic write refuses a symlink planted at its target and never writes through it', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.outside, 'target'), 'theirs');
    symlinkSync(join(fx.outside, 'target'), join(fx.root, 'f'));
    await expect(atomicWriteFile(fx.root, join(fx.root, 'f'), 'mine')).rejects.toBeInstanceOf(
      PathChangedError,
    );
    expect(readdirSync(fx.outside)).toEqual(['target']);
    expect(readFileSync(join(fx.outside, 'target'), 'utf8')).toBe('theirs');
  });
});

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  atomicWriteAll,
  atomicWriteFile,
  prepareWrite,
} from '../../../electron/host/fs/atomic-write';
import { PathChangedError } from '../../../electron/host/fs/safe-open';
import { tempDir } from '../../helpers/temp';

// What makes a write survive a crash: the new content is on disk (fsync of the temp file) before
// the rename makes it the file, and the rename itself is on disk (fsync of the directory) before
// the write is reported done. Observed on the real descriptors: each fsync is recorded with what
// the descriptor is (/proc/self/fd) and what the target held at that moment.

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  vi.restoreAllMocks();
});

function dir(): string {
  const t = tempDir('mewbo-aw-');
  cleanup = t.cleanup;
  return realpathSync(t.dir);
}

async function recordSyncs(target: string) {
  const probe = await open(target, 'r');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const syncs: { what: string; target: string | null; size: number }[] = [];
  const real = proto.sync;
  vi.spyOn(proto, 'sync').mockImplementation(async function (this: FileHandle) {
    const what = readlinkSync(`/proc/self/fd/${this.fd}`);
    syncs.push({
      what,
      target: existsSync(target) ? readFileSync(target, 'utf8') : null,
      size: statSync(what).isFile() ? statSync(what).size : -1,
    });
    return real.call(this);
  });
  return syncs;
}

describe.skipIf(process.platform !== 'linux')('atomic write: durability', () => {
  it('fsyncs the full temp file before the rename, then the directory after it', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    writeFileSync(f, 'old');
    const syncs = await recordSyncs(f);
    await atomicWriteFile(d, f, 'new content');
    expect(syncs).toEqual([
      {
        what: expect.stringMatching(/\/\.a\.txt\.mewbo-\d+-[0-9a-f]{8}\.tmp$/),
        target: 'old',
        size: 'new content'.length,
      },
      { what: d, target: 'new content', size: -1 },
    ]);
  });

  it('a new file is created with the default mode less the umask; an existing file keeps its mode', async () => {
    const d = dir();
    const m = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    const umask = parseInt(m![1]!, 8);
    await atomicWriteFile(d, join(d, 'fresh.txt'), 'x');
    expect(statSync(join(d, 'fresh.txt')).mode & 0o7777).toBe(0o666 & ~umask);
    writeFileSync(join(d, 'tight'), 'x');
    chmodSync(join(d, 'tight'), 0o604);
    await atomicWriteFile(d, join(d, 'tight'), 'y');
    expect(statSync(join(d, 'tight')).mode & 0o7777).toBe(0o604);
    // setuid/setgid/sticky bits of an existing file are kept too (mode & 0o7777).
    writeFileSync(join(d, 'sticky'), 'x');
    chmodSync(join(d, 'sticky'), 0o1644);
    await atomicWriteFile(d, join(d, 'sticky'), 'y');
    expect(statSync(join(d, 'sticky')).mode & 0o7777).toBe(0o1644);
  });

  it('creates missing parent directories inside the root', async () => {
    const d = dir();
    await atomicWriteFile(d, join(d, 'x', 'y', 'z.txt'), 'deep');
    expect(readFileSync(join(d, 'x', 'y', 'z.txt'), 'utf8')).toBe('deep');
  });

  it('writes bytes as given', async () => {
    const d = dir();
    const bytes = Uint8Array.from([0, 255, 10, 13, 0xc3]);
    await atomicWriteFile(d, join(d, 'b.bin'), bytes);
    expect([...readFileSync(join(d, 'b.bin'))]).toEqual([...bytes]);
  });

  it('an aborted prepared write leaves the target and the directory as they were', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    writeFileSync(f, 'old');
    const p = await prepareWrite(d, f, 'new');
    expect(p.target).toBe(f);
    expect(readdirSync(d)).toHaveLength(2);
    await p.abort();
    await p.abort();
    expect(readdirSync(d)).toEqual(['a.txt']);
    expect(readFileSync(f, 'utf8')).toBe('old');
  });

  it('abort after commit keeps the committed file', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    const p = await prepareWrite(d, f, 'new');
    await p.commit();
    await p.abort();
    expect(readdirSync(d)).toEqual(['a.txt']);
    expect(readFileSync(f, 'utf8')).toBe('new');
  });

  it('only stale temp files of this target are swept: not other files, not other targets', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    const keep = [
      '.b.txt.mewbo-999999999-deadbeef.tmp', // another target's
      '.a.txt.mewbo-999999999-deadbeef.bak', // not a temp file
      'a.txt.mewbo-999999999-deadbeef.tmp', // no leading dot: not ours
      '.a.txt.mewbo-notapid-deadbeef.tmp', // no pid
      '.a.txt.mewbo-0-deadbeef.tmp', // pid 0 is no process of ours
      '.a.txt.mewbo-1-deadbeef.tmp', // pid 1 is alive (EPERM or ours)
    ];
    for (const k of keep) writeFileSync(join(d, k), 'x');
    writeFileSync(join(d, '.a.txt.mewbo-999999998-00000000.tmp'), 'stale');
    await atomicWriteFile(d, f, 'new');
    expect(readdirSync(d).sort()).toEqual([...keep, 'a.txt'].sort());
  });

  it('a symlink planted at the target is refused before anything is written', async () => {
    const d = dir();
    const outside = tempDir('mewbo-aw-out-');
    try {
      writeFileSync(join(outside.dir, 't'), 'theirs');
      const { symlinkSync } = await import('node:fs');
      symlinkSync(join(outside.dir, 't'), join(d, 'f'));
      await expect(prepareWrite(d, join(d, 'f'), 'mine')).rejects.toBeInstanceOf(PathChangedError);
      expect(readdirSync(d)).toEqual(['f']);
    } finally {
      outside.cleanup();
    }
  });

  it('a failed write of several files removes every temp file and changes nothing', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.txt'), 'A');
    mkdirSync(join(d, 'file-not-dir'));
    writeFileSync(join(d, 'blocker'), 'i am a file');
    await expect(
      atomicWriteAll(d, [
        { path: join(d, 'a.txt'), before: 'A', after: 'A2' },
        // Its parent is a file: preparing it fails, after a.txt's temp file was written.
        { path: join(d, 'blocker', 'x.txt'), before: null, after: 'x' },
      ]),
    ).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(readdirSync(d).sort()).toEqual(['a.txt', 'blocker', 'file-not-dir']);
    expect(readFileSync(join(d, 'a.txt'), 'utf8')).toBe('A');
  });

  it('several files are all replaced when every rename works', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.txt'), 'A');
    await atomicWriteAll(d, [
      { path: join(d, 'a.txt'), before: 'A', after: 'A2' },
      { path: join(d, 'n', 'b.txt'), before: null, after: 'B' },
    ]);
    expect(readFileSync(join(d, 'a.txt'), 'utf8')).toBe('A2');
    expect(readFileSync(join(d, 'n', 'b.txt'), 'utf8')).toBe('B');
    expect(readdirSync(d).sort()).toEqual(['a.txt', 'n']);
  });

  it('rollback restores every file already replaced, in reverse, with its old content', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.txt'), 'A');
    writeFileSync(join(d, 'b.txt'), 'B');
    mkdirSync(join(d, 'c'));
    writeFileSync(join(d, 'c', 'keep'), 'k');
    await expect(
      atomicWriteAll(d, [
        { path: join(d, 'a.txt'), before: 'A', after: 'A2' },
        { path: join(d, 'b.txt'), before: 'B', after: 'B2' },
        { path: join(d, 'c'), before: '', after: 'not over a directory' },
      ]),
    ).rejects.toThrow();
    expect(readFileSync(join(d, 'a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(join(d, 'b.txt'), 'utf8')).toBe('B');
    expect(readdirSync(d).sort()).toEqual(['a.txt', 'b.txt', 'c']);
  });

  it('a given mode is the exact mode, whatever the umask, and replaces a symlink at the target', async () => {
    const d = dir();
    const outside = tempDir('mewbo-aw-out-');
    try {
      writeFileSync(join(outside.dir, 't'), 'theirs');
      const { symlinkSync, lstatSync } = await import('node:fs');
      symlinkSync(join(outside.dir, 't'), join(d, 'f'));
      const p = await prepareWrite(d, join(d, 'f'), 'restored', { mode: 0o764 });
      await p.commit();
      expect(lstatSync(join(d, 'f')).isSymbolicLink()).toBe(false);
      expect(statSync(join(d, 'f')).mode & 0o7777).toBe(0o764);
      expect(readFileSync(join(d, 'f'), 'utf8')).toBe('restored');
      expect(readFileSync(join(outside.dir, 't'), 'utf8')).toBe('theirs');
    } finally {
      outside.cleanup();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('atomic write: more edges', () => {
  it('rollback restores in reverse: a file changed twice in one unit gets its first content back', async () => {
    const d = dir();
    const a = join(d, 'a.txt');
    writeFileSync(a, 'A0');
    mkdirSync(join(d, 'c'));
    writeFileSync(join(d, 'c', 'keep'), 'k');
    await expect(
      atomicWriteAll(d, [
        { path: a, before: 'A0', after: 'A1' },
        { path: a, before: 'A1', after: 'A2' },
        { path: join(d, 'c'), before: '', after: 'not over a directory' },
      ]),
    ).rejects.toThrow();
    expect(readFileSync(a, 'utf8')).toBe('A0');
  });

  it('a temp name whose pid is not a whole number is not swept; a dead pid starting with 1 is', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    writeFileSync(join(d, '.a.txt.mewbo-1.5-deadbeef.tmp'), 'x');
    writeFileSync(join(d, '.a.txt.mewbo-1999999999-deadbeef.tmp'), 'stale');
    await atomicWriteFile(d, f, 'new');
    expect(readdirSync(d).sort()).toEqual(['.a.txt.mewbo-1.5-deadbeef.tmp', 'a.txt']);
  });

  it('a rename that fails leaves no temp file and the target as it was', async () => {
    const d = dir();
    mkdirSync(join(d, 'target'));
    writeFileSync(join(d, 'target', 'keep'), 'k');
    await expect(atomicWriteFile(d, join(d, 'target'), 'x')).rejects.toThrow();
    expect(readdirSync(d)).toEqual(['target']);
    expect(readdirSync(join(d, 'target'))).toEqual(['keep']);
  });
});

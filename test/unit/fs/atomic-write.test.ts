import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicWriteAll, atomicWriteFile } from '../../../electron/host/fs/atomic-write';
import { tempDir } from '../../helpers/temp';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function dir(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return t.dir;
}

describe('atomicWriteFile', () => {
  it('replaces the content, keeps the mode and leaves no temp file', async () => {
    const d = dir();
    const f = join(d, 'x.sh');
    writeFileSync(f, 'old');
    chmodSync(f, 0o750);
    await atomicWriteFile(d, f, 'new');
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(statSync(f).mode & 0o777).toBe(0o750);
    expect(readdirSync(d)).toEqual(['x.sh']);
  });

  it('a failed write leaves the target untouched and removes its temp file', async () => {
    const d = dir();
    const sub = join(d, 'ro');
    mkdirSync(sub);
    const f = join(sub, 'a.txt');
    writeFileSync(f, 'old');
    chmodSync(sub, 0o500);
    try {
      if (process.getuid?.() === 0) return; // root ignores directory permissions
      await expect(atomicWriteFile(d, f, 'new')).rejects.toThrow();
      expect(readFileSync(f, 'utf8')).toBe('old');
    } finally {
      chmodSync(sub, 0o700);
    }
    expect(readdirSync(sub)).toEqual(['a.txt']);
  });

  it('removes temp files left by a writer that died, not those of live ones', async () => {
    const d = dir();
    const f = join(d, 'a.txt');
    writeFileSync(f, 'old');
    const dead = join(d, '.a.txt.mewbo-999999999-deadbeef.tmp');
    const live = join(d, `.a.txt.mewbo-${process.pid}-cafebabe.tmp`);
    writeFileSync(dead, 'partial');
    writeFileSync(live, 'in flight');
    await atomicWriteFile(d, f, 'new');
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});

describe('atomicWriteAll', () => {
  it('rolls back files already replaced when a later rename fails', async () => {
    const d = dir();
    const a = join(d, 'a.txt');
    const b = join(d, 'b');
    writeFileSync(a, 'A-old');
    mkdirSync(b);
    writeFileSync(join(b, 'keep'), 'k');
    await expect(
      atomicWriteAll(d, [
        { path: a, before: 'A-old', after: 'A-new' },
        { path: b, before: '', after: 'cannot replace a non-empty directory' },
      ]),
    ).rejects.toThrow();
    expect(readFileSync(a, 'utf8')).toBe('A-old');
    expect(readdirSync(d).sort()).toEqual(['a.txt', 'b']);
  });

  it('a created file is removed again on rollback', async () => {
    const d = dir();
    const created = join(d, 'new.txt');
    const b = join(d, 'b');
    mkdirSync(b);
    writeFileSync(join(b, 'keep'), 'k');
    await expect(
      atomicWriteAll(d, [
        { path: created, before: null, after: 'fresh' },
        { path: b, before: '', after: 'x' },
      ]),
    ).rejects.toThrow();
    expect(existsSync(created)).toBe(false);
  });
});

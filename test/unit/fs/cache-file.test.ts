import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { writeCacheFile } from '../../../electron/host/fs/cache-file';
import { tempDir } from '../../helpers/temp';

// The CLI's caches (code caches, the checked config record) are written whole, owner-only, and a
// write that fails leaves nothing behind and stops nothing.

let temp: ReturnType<typeof tempDir> | undefined;
afterEach(() => temp?.cleanup());

it('writes the file owner-only in a folder it makes owner-only', () => {
  temp = tempDir('mewbo-cache-file-');
  const file = join(temp.dir, 'cache', 'a.json');
  expect(writeCacheFile(file, '{"a":1}')).toBe(true);
  expect(readFileSync(file, 'utf8')).toBe('{"a":1}');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(temp.dir, 'cache')).mode & 0o777).toBe(0o700);
});

it('a write that fails after its temp file was made returns false and leaves no temp file', () => {
  temp = tempDir('mewbo-cache-file-');
  // The target is a folder that is not empty: the temp file is written, its rename fails.
  const file = join(temp.dir, 'taken');
  mkdirSync(file);
  writeFileSync(join(file, 'x'), '');
  expect(writeCacheFile(file, 'data')).toBe(false);
  expect(readdirSync(temp.dir)).toEqual(['taken']);
});

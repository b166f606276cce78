import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFixture, REPO_ROOT, runCli, type Fixture } from '../../unit/tools/harness';

// A `mewbo` command (here `mewbo tool`) runs from its bundle with a V8 code cache kept in
// $MEWBO_HOME/cache (electron/cli/code-cache.ts): written by the first run, read by the next ones,
// replaced when V8 cannot use it, owner-only, and never in the way of the command's answer.

let fx: Fixture;
afterEach(() => fx?.cleanup());

const cacheDir = () => join(fx.home, 'cache');
const cacheFiles = () => readdirSync(cacheDir()).filter((f) => f.startsWith('cli-tool.cjs-'));

function readSmallFile() {
  const r = runCli(fx, 'read_file', { path: 'a.txt' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('mewbo command code cache', () => {
  it('the first run writes an owner-only cache that later runs read without writing it again', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\n');
    const first = readSmallFile();
    const [file, ...more] = cacheFiles();
    expect(file).toMatch(/^cli-tool\.cjs-\d+-\d+\.v8$/);
    expect(more).toEqual([]);
    const path = join(cacheDir(), file!);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const written = statSync(path);

    expect(readSmallFile()).toBe(first);
    // Rewritten, it would be a new file (written beside and renamed over the old one).
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it('a cache V8 refuses is replaced, and the command answers as without it', () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\n');
    const first = readSmallFile();
    const path = join(cacheDir(), cacheFiles()[0]!);
    writeFileSync(path, 'not a V8 code cache');

    expect(readSmallFile()).toBe(first);
    expect(readFileSync(path, 'utf8')).not.toBe('not a V8 code cache');
  });

  it("writing a bundle's cache removes the caches of its earlier builds", () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    readSmallFile();
    const current = cacheFiles()[0]!;
    writeFileSync(join(cacheDir(), current), 'stale: refused, so rewritten');
    const stale = 'cli-tool.cjs-1-1.v8';
    const otherBundle = 'cli-mcp.cjs-1-1.v8';
    writeFileSync(join(cacheDir(), stale), 'an earlier build');
    writeFileSync(join(cacheDir(), otherBundle), 'another command');

    readSmallFile();
    expect(cacheFiles()).toEqual([current]);
    expect(readdirSync(cacheDir())).toContain(otherBundle);
  });

  it('every command bundle is ASCII, so it loads as Latin-1 with no UTF-8 decoding', () => {
    const dist = join(REPO_ROOT, 'dist');
    const bundles = readdirSync(dist).filter((f) => /^cli-.*\.cjs$/.test(f));
    expect(bundles).toContain('cli-tool.cjs');
    expect(bundles.filter((f) => !isAscii(readFileSync(join(dist, f))))).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp';
import {
  PathValidationError,
  isInside,
  narrowRoot,
  resolveInsideRoot,
  safeResolve,
} from '../../../electron/host/fs/safe-path';

let root: string;
let outside: string;
let cleanups: Array<() => void> = [];

beforeEach(() => {
  const a = tempDir('mewbo-root-');
  const b = tempDir('mewbo-outside-');
  cleanups = [a.cleanup, b.cleanup];
  root = realpathSync(a.dir);
  outside = realpathSync(b.dir);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.txt'), 'a');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => cleanups.forEach((c) => c()));

function refused(p: string, r = root): void {
  expect(() => resolveInsideRoot(r, p)).toThrow(PathValidationError);
}

describe('resolveInsideRoot', () => {
  it('resolves relative and absolute paths inside the root to real paths', () => {
    expect(resolveInsideRoot(root, 'src/a.txt')).toBe(join(root, 'src/a.txt'));
    expect(resolveInsideRoot(root, join(root, 'src/a.txt'))).toBe(join(root, 'src/a.txt'));
    expect(resolveInsideRoot(root, 'src/../src/a.txt')).toBe(join(root, 'src/a.txt'));
    expect(resolveInsideRoot(root, '.')).toBe(root);
  });

  it('accepts a path that does not exist yet below an existing directory', () => {
    expect(resolveInsideRoot(root, 'src/new/deep/file.ts')).toBe(
      join(root, 'src/new/deep/file.ts'),
    );
  });

  it('refuses .. escapes, absolute paths outside, NUL bytes and home-relative paths', () => {
    refused('..');
    refused('../x');
    refused('src/../../x');
    refused('/etc/passwd');
    refused(join(outside, 'secret.txt'));
    refused('src/a.txt\0.png');
    refused('~/.ssh/id_rsa');
  });

  it('refuses a sibling directory that shares the root as a string prefix', () => {
    const sibling = `${root}-evil`;
    mkdirSync(sibling);
    cleanups.push(() => rmSync(sibling, { recursive: true, force: true }));
    refused(join(sibling, 'x'));
  });

  it('refuses symlinks and symlinked parents that lead out, allows ones that stay in', () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak'));
    symlinkSync(outside, join(root, 'outdir'));
    symlinkSync(join(outside, 'missing', 'new.txt'), join(root, 'dangling'));
    symlinkSync(join(root, 'src'), join(root, 'inlink'));
    refused('leak');
    refused('outdir/secret.txt');
    refused('outdir/new-file.txt');
    refused('dangling');
    expect(resolveInsideRoot(root, 'inlink/a.txt')).toBe(join(root, 'src/a.txt'));
  });

  it('refuses symlink loops instead of hanging', () => {
    symlinkSync(join(root, 'loop2'), join(root, 'loop1'));
    symlinkSync(join(root, 'loop1'), join(root, 'loop2'));
    refused('loop1/x');
  });

  it('isInside does not treat a string prefix as containment', () => {
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/', '/x')).toBe(true);
  });
});

describe('narrowRoot', () => {
  it('returns the session root when the model gives none, and narrows to a subdirectory', () => {
    expect(narrowRoot(root)).toBe(root);
    expect(narrowRoot(root, 'src')).toBe(join(root, 'src'));
    expect(narrowRoot(root, join(root, 'src'))).toBe(join(root, 'src'));
  });

  it('never widens: a model root outside, or not a directory, is refused', () => {
    expect(() => narrowRoot(join(root, 'src'), root)).toThrow(PathValidationError);
    expect(() => narrowRoot(root, '/')).toThrow(PathValidationError);
    expect(() => narrowRoot(root, 'src/a.txt')).toThrow(/not an existing directory/);
  });

  it('safeResolve turns a refusal into a path_validation payload', () => {
    const r = safeResolve(root, undefined, '../x');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: 'error', code: 'path_validation' });
  });
});

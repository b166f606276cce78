import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isInside,
  narrowRoot,
  pathErrorPayload,
  PathValidationError,
  relativeToRoot,
  resolveInsideRoot,
  safeResolve,
} from '../../../electron/host/fs/safe-path';
import { tempDir } from '../../helpers/temp';

// The refusals of the path check each say what was wrong with which argument (the model reads
// them to correct itself), and the accepted paths are exactly the real ones.

let root: string;
let outside: string;
let cleanups: (() => void)[] = [];
beforeEach(() => {
  const a = tempDir('mewbo-spe-');
  const b = tempDir('mewbo-spe-out-');
  cleanups = [a.cleanup, b.cleanup];
  root = realpathSync(a.dir);
  outside = realpathSync(b.dir);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.txt'), 'a');
});
afterEach(() => cleanups.forEach((c) => c()));

function refusal(fn: () => unknown): PathValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PathValidationError);
    return err as PathValidationError;
  }
  throw new Error('not refused');
}

describe('path refusals name the argument and the cause', () => {
  it('the label defaults to "path" and is used when given', () => {
    expect(refusal(() => resolveInsideRoot(root, '../x')).message).toBe(
      `path '../x' is outside the project root ${root}`,
    );
    const e = refusal(() => resolveInsideRoot(root, '../x', { label: 'file_path' }));
    expect(e.message).toBe(`file_path '../x' is outside the project root ${root}`);
    expect(e.path).toBe('../x');
    expect(e.name).toBe('PathValidationError');
    expect(e.code).toBe('path_validation');
  });

  it('a non-string, a NUL byte, and the home directory are refused with their own words', () => {
    expect(refusal(() => resolveInsideRoot(root, 5 as unknown as string)).message).toBe(
      'path must be a string',
    );
    expect(refusal(() => resolveInsideRoot(root, 'a\0b', { label: 'cwd' })).message).toBe(
      'cwd contains a NUL byte',
    );
    for (const p of ['~', '~/x'])
      expect(refusal(() => resolveInsideRoot(root, p)).message).toBe(
        `path '${p}' is home-relative; give a path inside the project root`,
      );
    // A name that merely starts with ~ is an ordinary relative name.
    expect(resolveInsideRoot(root, '~notes')).toBe(join(root, '~notes'));
  });

  it('a symlink leading out says where it leads', () => {
    symlinkSync(outside, join(root, 'out'));
    expect(refusal(() => resolveInsideRoot(root, 'out/f')).message).toBe(
      `path 'out/f' leads outside the project root through a symlink (to ${join(outside, 'f')})`,
    );
  });

  it('a bad root is refused: NUL, relative, missing, not a directory', () => {
    expect(refusal(() => resolveInsideRoot('/a\0', 'x')).message).toBe('root contains a NUL byte');
    expect(refusal(() => resolveInsideRoot('rel/root', 'x')).message).toBe(
      'root must be absolute: rel/root',
    );
    expect(refusal(() => resolveInsideRoot(join(root, 'gone'), 'x')).message).toBe(
      `root does not exist: ${join(root, 'gone')}`,
    );
    const file = join(root, 'src', 'a.txt');
    const e = refusal(() => resolveInsideRoot(file, 'x'));
    expect(e.message).toBe(`root is not a directory: ${file}`);
    expect(e.path).toBe(file);
  });

  it('a path too long for the kernel is refused as too long', () => {
    const long = `src/${'a'.repeat(300)}`; // one name longer than NAME_MAX
    expect(refusal(() => resolveInsideRoot(root, long)).message).toBe(`path too long: ${long}`);
  });

  it('a symlink loop is named as one', () => {
    symlinkSync(join(root, 'l2'), join(root, 'l1'));
    symlinkSync(join(root, 'l1'), join(root, 'l2'));
    expect(refusal(() => resolveInsideRoot(root, 'l1/x')).message).toBe('symlink loop in l1/x');
  });
});

describe('accepted paths are the real ones', () => {
  it('a root given by a symlinked spelling accepts absolute paths in either spelling', () => {
    const link = join(outside, 'rootlink');
    symlinkSync(root, link);
    expect(resolveInsideRoot(link, join(link, 'src', 'a.txt'))).toBe(join(root, 'src', 'a.txt'));
    expect(resolveInsideRoot(link, join(root, 'src', 'a.txt'))).toBe(join(root, 'src', 'a.txt'));
    expect(resolveInsideRoot(link, 'src')).toBe(join(root, 'src'));
    // The symlink's own directory is still outside.
    expect(() => resolveInsideRoot(link, join(outside, 'x'))).toThrow(PathValidationError);
  });

  it('a dangling symlink inside the root resolves to the file it would create', () => {
    symlinkSync(join(root, 'src', 'target.txt'), join(root, 'dangling'));
    expect(resolveInsideRoot(root, 'dangling')).toBe(join(root, 'src', 'target.txt'));
    // A chain of dangling links, each followed by hand.
    symlinkSync(join(root, 'dangling'), join(root, 'chain'));
    expect(resolveInsideRoot(root, 'chain')).toBe(join(root, 'src', 'target.txt'));
    // Relative targets resolve from the link's directory, with the missing rest appended.
    symlinkSync('newdir', join(root, 'src', 'rel'));
    expect(resolveInsideRoot(root, 'src/rel/deeper/x.txt')).toBe(
      join(root, 'src', 'newdir', 'deeper', 'x.txt'),
    );
  });

  it('missing components directly under / are kept whole', () => {
    expect(resolveInsideRoot('/', '/no-such-dir-mewbo-x/y')).toBe('/no-such-dir-mewbo-x/y');
  });

  it('a path through a file is resolved lexically below it (the open then fails)', () => {
    expect(resolveInsideRoot(root, 'src/a.txt/x')).toBe(join(root, 'src', 'a.txt', 'x'));
  });
});

describe('narrowing the root', () => {
  it('empty and null mean the session root', () => {
    expect(narrowRoot(root, '')).toBe(root);
    expect(narrowRoot(root, null)).toBe(root);
  });

  it('a missing directory is refused like a file, with the model root in the message', () => {
    expect(refusal(() => narrowRoot(root, 'nope')).message).toBe(
      "root 'nope' is not an existing directory",
    );
    expect(refusal(() => narrowRoot(root, '../x')).message).toBe(
      `root '../x' is outside the project root ${root}`,
    );
  });

  it('safeResolve resolves inside the narrowed root and reports refusals as payloads', () => {
    expect(safeResolve(root, 'src', 'a.txt')).toEqual({
      ok: true,
      root: join(root, 'src'),
      path: join(root, 'src', 'a.txt'),
    });
    const r = safeResolve(root, 'src', '../../x', { label: 'file_path' });
    expect(r).toEqual({
      ok: false,
      error: pathErrorPayload(
        new PathValidationError(
          `file_path '../../x' is outside the project root ${join(root, 'src')}`,
          '../../x',
        ),
      ),
    });
    expect(pathErrorPayload(new PathValidationError('m', '/p'))).toEqual({
      kind: 'error',
      code: 'path_validation',
      message: 'm',
      details: { path: '/p' },
    });
  });
});

describe('small helpers', () => {
  it('isInside handles a root with a trailing separator', () => {
    expect(isInside('/a/', '/a/b')).toBe(true);
    expect(isInside('/a/', '/ab')).toBe(false);
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/a/b', '/a')).toBe(false);
  });

  it('relativeToRoot shows the root as "."', () => {
    expect(relativeToRoot('/r', '/r')).toBe('.');
    expect(relativeToRoot('/r', '/r/a/b')).toBe('a/b');
  });
});

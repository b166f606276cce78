import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ALL_RIGHTS,
  FS,
  READ_RIGHTS,
  TERMINAL_WRITE_ONLY_RIGHTS,
} from '../../../electron/host/sandbox/access-rights';
import type { DenyList } from '../../../electron/host/sandbox/deny-list';
import { compileGrants, encodeRules, type Grant } from '../../../electron/host/sandbox/grant-plan';
import { isInside } from '../../../electron/host/fs/safe-path';
import { tempDir } from '../../helpers/temp';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function tree() {
  const t = tempDir('mewbo-plan-');
  cleanup = t.cleanup;
  const dir = realpathSync(t.dir);
  for (const d of ['x/y/secret', 'x/y/sibling', 'x/other', 'proj', 'tmp'])
    mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'x', 'y', 'file.txt'), 'f');
  symlinkSync(join(dir, 'x', 'y', 'secret'), join(dir, 'x', 'link'));
  return dir;
}

function deny(dir: string, denied: string[], readmitted: string[] = []): DenyList {
  return { denied, readmitted, root: join(dir, 'proj'), activeProject: null, warnings: [] };
}

const covers = (grants: Grant[], p: string) => grants.filter((g) => isInside(g.path, p));

describe('grant plan', () => {
  test('a denial becomes grants for every sibling along its ancestry, and nothing covers it', () => {
    const dir = tree();
    const secret = join(dir, 'x', 'y', 'secret');
    const { grants } = compileGrants({
      deny: deny(dir, [secret]),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    const paths = grants.map((g) => g.path);
    expect(covers(grants, secret)).toEqual([]);
    expect(covers(grants, join(secret, 'inner.txt'))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        join(dir, 'x', 'y', 'sibling'),
        join(dir, 'x', 'y', 'file.txt'),
        join(dir, 'x', 'other'),
        join(dir, 'proj'),
        '/usr',
        '/etc',
      ]),
    );
    // Ancestors are not granted themselves (that would grant what is below them), nor are symlinks.
    for (const ancestor of ['/', dir, join(dir, 'x'), join(dir, 'x', 'y'), join(dir, 'x', 'link')])
      expect(paths).not.toContain(ancestor);
    expect(grants.find((g) => g.path === '/usr')!.rights).toBe(ALL_RIGHTS);
  });

  test('no grant lets a shell create device nodes', () => {
    const dir = tree();
    const { grants } = compileGrants({
      deny: deny(dir, [join(dir, 'x')]),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    for (const g of grants) expect(g.rights & (FS.MAKE_BLOCK | FS.MAKE_CHAR)).toBe(0);
  });

  test('allowed_paths win over denials', () => {
    const dir = tree();
    const y = join(dir, 'x', 'y');
    const { grants } = compileGrants({
      deny: deny(dir, [y], [join(y, 'secret')]),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(grants.find((g) => g.path === join(y, 'secret'))?.rights).toBe(ALL_RIGHTS);
    expect(covers(grants, join(y, 'sibling')).map((g) => g.path)).toEqual([]);
  });

  test('the session root is granted even inside a denied directory, minus denials inside it', () => {
    const dir = tree();
    const d: DenyList = {
      ...deny(dir, [dir, join(dir, 'proj', 'inner')]),
      root: join(dir, 'proj'),
    };
    mkdirSync(join(dir, 'proj', 'inner'));
    mkdirSync(join(dir, 'proj', 'src'));
    const { grants } = compileGrants({ deny: d, writeScope: 'unrestricted', tempDirs: [] });
    expect(grants.map((g) => g.path)).toContain(join(dir, 'proj', 'src'));
    expect(covers(grants, join(dir, 'proj', 'inner'))).toEqual([]);
  });

  test('write scope "project": reads everywhere not denied, writes only in the project and temp dirs', () => {
    const dir = tree();
    const { grants } = compileGrants({
      deny: deny(dir, [join(dir, 'x', 'y', 'secret')]),
      writeScope: 'project',
      tempDirs: [join(dir, 'tmp')],
    });
    const rightsAt = (p: string) => covers(grants, p).reduce((r, g) => r | g.rights, 0);
    expect(rightsAt('/usr/bin/env')).toBe(READ_RIGHTS);
    expect(rightsAt(join(dir, 'x', 'other', 'f'))).toBe(READ_RIGHTS);
    expect(rightsAt(join(dir, 'proj', 'f')) & FS.WRITE_FILE).toBeTruthy();
    expect(rightsAt(join(dir, 'tmp', 'f')) & FS.MAKE_REG).toBeTruthy();
    expect(rightsAt('/dev/null') & FS.WRITE_FILE).toBeTruthy();
    expect(rightsAt(join(dir, 'x', 'y', 'secret', 'f'))).toBe(0);
  });

  test('a temp directory inside a denied path is refused, with a warning, in either write scope', () => {
    const dir = tree();
    const secret = join(dir, 'x', 'y', 'secret');
    const tmpInSecret = join(secret, 'tmp');
    mkdirSync(tmpInSecret);
    for (const writeScope of ['project', 'unrestricted'] as const) {
      const plan = compileGrants({
        deny: deny(dir, [secret]),
        writeScope,
        tempDirs: [tmpInSecret],
      });
      expect(covers(plan.grants, join(tmpInSecret, 'f'))).toEqual([]);
      expect(covers(plan.grants, join(secret, 'key'))).toEqual([]);
      expect(plan.warnings.join('\n')).toMatch(
        /temp directory .*secret\/tmp lies in a denied path/,
      );
    }
  });

  test('a write-only terminal is granted writes but never reads', () => {
    const dir = tree();
    const { grants } = compileGrants({
      deny: deny(dir, []),
      writeScope: 'unrestricted',
      tempDirs: [],
      terminalWriteOnly: true,
    });
    const rights = covers(grants, '/dev/pts/0').reduce((r, g) => r | g.rights, 0);
    expect(rights).toBe(TERMINAL_WRITE_ONLY_RIGHTS);
    expect(rights & FS.READ_FILE).toBe(0);
  });

  test('a directory that cannot be listed drops its grants with a warning (narrower, still confined)', () => {
    const dir = tree();
    // Running as root nothing is unreadable; a file on the ancestry fails the listing the same way.
    const file = join(dir, 'x', 'y', 'file.txt');
    const { grants, warnings } = compileGrants({
      deny: deny(dir, [join(file, 'below')]),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(warnings.some((w) => w.includes(`dropped grants under ${file}`))).toBe(true);
    expect(covers(grants, file)).toEqual([]);
    expect(grants.map((g) => g.path)).toContain(join(dir, 'x', 'y', 'sibling'));
  });

  test("a worktree's checkout is read-only even under the unrestricted scope, its git parts writable", () => {
    const dir = tree();
    const checkout = join(dir, 'x');
    const objects = join(checkout, 'y', 'sibling');
    const { grants } = compileGrants({
      deny: { ...deny(dir, [join(dir, 'x', 'y', 'secret')]), readOnly: [checkout] },
      writeScope: 'unrestricted',
      tempDirs: [],
      gitWritable: [objects],
    });
    const rights = (p: string) => covers(grants, p).reduce((r, g) => r | g.rights, 0);
    expect(rights(join(checkout, 'other', 'f.txt'))).toBe(READ_RIGHTS);
    expect(rights(join(checkout, 'y', 'file.txt'))).toBe(READ_RIGHTS);
    expect(rights(join(objects, 'ab'))).toBe(ALL_RIGHTS);
    // A denial inside the checkout stays a denial.
    expect(covers(grants, join(dir, 'x', 'y', 'secret'))).toEqual([]);
    expect(rights(join(dir, 'proj', 'a'))).toBe(ALL_RIGHTS);
  });

  test('rules are encoded as "HEXMASK PATH" records ending in NUL', () => {
    expect(
      encodeRules([
        { path: '/a b', rights: 0xff },
        { path: '/c', rights: 1 },
      ]).toString(),
    ).toBe('ff /a b\0' + '1 /c\0');
  });
});

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appBinDirs,
  nodeBinDirs,
  resolveExecutable,
} from '../../../electron/host/lsp/resolve-command';
import { tempDir } from '../../helpers/temp';

function executable(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('finding a server executable', () => {
  const temp = tempDir('mewbo-lsp-bin-');
  const projectBin = join(temp.dir, 'project/node_modules/.bin');
  const pathBin = join(temp.dir, 'usr/bin');
  const appBin = join(temp.dir, 'app/node_modules/.bin');
  afterAll(() => temp.cleanup());

  it("prefers the project's node_modules/.bin, then PATH, then the app's own", () => {
    executable(projectBin, 'both-project-and-path');
    executable(pathBin, 'both-project-and-path');
    executable(pathBin, 'path-and-app');
    executable(appBin, 'path-and-app');
    executable(appBin, 'app-only');
    const opts = { before: [projectBin], after: [appBin], path: pathBin };
    expect(resolveExecutable('both-project-and-path', temp.dir, opts)).toBe(
      join(projectBin, 'both-project-and-path'),
    );
    expect(resolveExecutable('path-and-app', temp.dir, opts)).toBe(join(pathBin, 'path-and-app'));
    expect(resolveExecutable('app-only', temp.dir, opts)).toBe(join(appBin, 'app-only'));
    expect(resolveExecutable('nowhere', temp.dir, opts)).toBeNull();
  });

  it('skips a file that is not executable, and resolves a relative command against the root', () => {
    executable(pathBin, 'not-exec', 0o644);
    expect(
      resolveExecutable('not-exec', temp.dir, { before: [], after: [], path: pathBin }),
    ).toBeNull();
    executable(join(temp.dir, 'tools'), 'my-lsp');
    expect(resolveExecutable('./tools/my-lsp', temp.dir, { before: [], after: [], path: '' })).toBe(
      join(temp.dir, 'tools/my-lsp'),
    );
  });

  it('lists node_modules/.bin directories from the workspace up to the project root', () => {
    const nested = join(temp.dir, 'project/packages/web');
    executable(join(nested, 'node_modules/.bin'), 'x');
    expect(nodeBinDirs(nested, join(temp.dir, 'project'))).toEqual([
      join(nested, 'node_modules/.bin'),
      projectBin,
    ]);
  });

  it("finds this app's node_modules/.bin, where the bundled servers live", () => {
    const [dir] = appBinDirs();
    expect(
      resolveExecutable('typescript-language-server', '/', { before: [], after: [dir!], path: '' }),
    ).toBe(join(dir!, 'typescript-language-server'));
  });
});

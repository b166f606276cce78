import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findWorkspaceRoot } from '../../../electron/host/lsp/find-root';
import { tempDir } from '../../helpers/temp';

describe('workspace root', () => {
  const temp = tempDir('mewbo-lsp-root-');
  const outer = temp.dir;
  const project = join(outer, 'project');
  for (const rel of [
    'package.json',
    'project/README.md',
    'project/packages/web/tsconfig.json',
    'project/packages/web/src/deep/a.ts',
    'project/scripts/b.ts',
  ]) {
    mkdirSync(dirname(join(outer, rel)), { recursive: true });
    writeFileSync(join(outer, rel), '');
  }
  afterAll(() => temp.cleanup());

  it('is the nearest directory above the file holding a marker', () => {
    const file = join(project, 'packages/web/src/deep/a.ts');
    expect(findWorkspaceRoot(file, project, ['tsconfig.json', 'package.json'])).toBe(
      join(project, 'packages/web'),
    );
  });

  it('falls back to the project root, never a marker above the project', () => {
    const file = join(project, 'scripts/b.ts');
    expect(findWorkspaceRoot(file, project, ['tsconfig.json', 'package.json'])).toBe(project);
  });
});

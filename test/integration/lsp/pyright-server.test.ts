import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LspService } from '../../../electron/host/lsp/lsp-service';
import { lspTool } from '../../../electron/host/tools/lsp';
import { tempDir } from '../../helpers/temp';
import { configWith, lspProject, toolContext, writeProject } from './lsp-fixtures';

// Real pyright (from this repo's dev dependencies): one server for the built-in spec, whose
// diagnostics are pulled, and one configured as a custom server, whose diagnostics are the
// versioned pushes it publishes (the path gopls and rust-analyzer take).

const UTIL = `def double(n: int) -> int:
    return n * 2
`;
const APP_BROKEN = `from pkg.util import double
from pkg.consts import LIMIT

total: int = double(2)
label: str = double(3)
limit: int = LIMIT
`;
const APP_FIXED = APP_BROKEN.replace('label: str', 'label: int');

describe('lsp_tool on pyright', () => {
  const { root, lsp, call } = lspProject('mewbo-lsp-py-', {
    'pyproject.toml': '[project]\nname = "demo"\nversion = "0"\n',
    'pkg/__init__.py': '',
    'pkg/util.py': UTIL,
    'pkg/consts.py': 'LIMIT: int = 3\n',
    'app.py': APP_BROKEN,
  });

  it('diagnostics report a type error with its position and rule', async () => {
    const result = await call({ operation: 'diagnostics', file_path: 'app.py' });
    expect(result).toMatchObject({
      kind: 'lsp_diagnostics',
      file: 'app.py',
      server: 'pyright',
      total: 1,
    });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        line: 4,
        character: 13,
        severity: 'error',
        code: 'reportAssignmentType',
        excerpt: 'label: str = double(3)',
      }),
    ]);
  });

  it('definition finds a function in another module', async () => {
    const result = await call({
      operation: 'definition',
      file_path: 'app.py',
      line: 3,
      character: 14,
    });
    expect(result.locations).toEqual([
      expect.objectContaining({ file: 'pkg/util.py', line: 0, character: 4 }),
    ]);
  });

  it('hover shows the function signature', async () => {
    const result = await call({
      operation: 'hover',
      file_path: 'pkg/util.py',
      line: 0,
      character: 5,
    });
    expect(result.text).toContain('def double(n: int) -> int');
  });

  it('passive diagnostics wait for the publish of the edited version', async () => {
    writeFileSync(join(root, 'app.py'), APP_FIXED);
    expect((await lsp.diagnosticsAfterEdit(root, ['app.py']))?.text).toBe(
      'Diagnostics after the edit (line:column from 1):\napp.py: no errors or warnings now',
    );
    writeFileSync(join(root, 'app.py'), `${APP_FIXED}oops: str = 1\n`);
    const note = (await lsp.diagnosticsAfterEdit(root, ['app.py']))?.text;
    expect(note).toContain('app.py: 1 problem');
    expect(note).toMatch(/7:13 error reportAssignmentType: Type "Literal\[1\]" is not assignable/);
  });

  it('a module no one opened, changed on disk as a shell would, is seen by the next query', async () => {
    writeFileSync(join(root, 'app.py'), APP_FIXED);
    expect(await call({ operation: 'diagnostics', file_path: 'app.py' })).toMatchObject({
      total: 0,
    });
    writeFileSync(join(root, 'pkg/consts.py'), 'LIMIT: str = "three"\n');
    const result = await call({ operation: 'diagnostics', file_path: 'app.py' });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ line: 5, excerpt: 'limit: int = LIMIT' }),
    ]);
    writeFileSync(join(root, 'pkg/consts.py'), 'LIMIT: int = 3\n');
  });
});

describe('a pyright configured as a custom server (push diagnostics)', () => {
  const temp = tempDir('mewbo-lsp-py-push-');
  afterAll(() => temp.cleanup());

  it('starts on warm(), then waits for the publish of the synced version, after open and after an edit', async () => {
    writeProject(temp.dir, { 'pyproject.toml': '', 'm.py': 'x: int = "s"\n' });
    const servers = {
      'pyright-push': {
        command: ['pyright-langserver', '--stdio'],
        extensions: ['.py'],
        language_id: 'python',
      },
    };
    const config = configWith({ lsp: { servers } });
    const lsp = new LspService({ config: () => config, waits: { passiveMs: 30_000 } });
    try {
      const ctx = toolContext(temp.dir, lsp, config);
      lsp.warm(temp.dir, 'm.py');
      await expect
        .poll(() => lsp.runningServers()[0]?.pid, { timeout: 30_000 })
        .toBeTypeOf('number');
      const first = await lspTool.run(ctx, { operation: 'diagnostics', file_path: 'm.py' });
      expect(first).toMatchObject({ kind: 'lsp_diagnostics', server: 'pyright-push', total: 1 });
      expect(first.note).toBeUndefined();
      writeFileSync(join(temp.dir, 'm.py'), 'x: int = 1\n');
      expect((await lsp.diagnosticsAfterEdit(temp.dir, ['m.py']))?.text).toContain(
        'm.py: no errors or warnings now',
      );
    } finally {
      await lsp.dispose();
    }
  });
});

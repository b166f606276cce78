import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspService } from '../../../electron/host/lsp/lsp-service';
import { lspTool } from '../../../electron/host/tools/lsp';
import type { ToolContext } from '../../../electron/host/tools/tool';
import { tempDir } from '../../helpers/temp';
import { configWith, toolContext, writeProject } from './lsp-fixtures';

// One real pyright (from this repo's dev dependencies) for the file. Pyright pushes diagnostics
// with the document version, so these exercise the publish-and-wait path rather than a pull.

const UTIL = `def double(n: int) -> int:
    return n * 2
`;
const APP_BROKEN = `from pkg.util import double

total: int = double(2)
label: str = double(3)
`;
const APP_FIXED = APP_BROKEN.replace('label: str', 'label: int');

describe('lsp_tool on pyright', () => {
  const temp = tempDir('mewbo-lsp-py-');
  const root = temp.dir;
  let lsp: LspService;
  let ctx: ToolContext;
  const call = (args: Record<string, unknown>) => lspTool.run(ctx, lspTool.parameters.parse(args));

  beforeAll(() => {
    writeProject(root, {
      'pyproject.toml': '[project]\nname = "demo"\nversion = "0"\n',
      'pkg/__init__.py': '',
      'pkg/util.py': UTIL,
      'app.py': APP_BROKEN,
    });
    lsp = new LspService({ config: () => configWith(), waits: { passiveMs: 30_000 } });
    ctx = toolContext(root, lsp);
  });

  afterAll(async () => {
    await lsp.dispose();
    temp.cleanup();
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
        line: 3,
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
      line: 2,
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
    expect(await lsp.diagnosticsAfterEdit(root, ['app.py'])).toBe(
      'Diagnostics after the edit (line:column from 1):\napp.py: no errors or warnings now',
    );
    writeFileSync(join(root, 'app.py'), `${APP_FIXED}oops: str = 1\n`);
    const note = await lsp.diagnosticsAfterEdit(root, ['app.py']);
    expect(note).toContain('app.py: 1 problem');
    expect(note).toMatch(/5:13 error reportAssignmentType: Type "Literal\[1\]" is not assignable/);
  });
});

import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LspService } from '../../../electron/host/lsp/lsp-service';
import { lspTool } from '../../../electron/host/tools/lsp';
import { tempDir } from '../../helpers/temp';
import { configWith, toolContext, writeProject } from './lsp-fixtures';

// Workspace trust: a language server the project ships (node_modules/.bin, or anything under the
// project) runs only once the project is trusted. The planted server writes a marker when run, so
// each test first shows it does run on a trusted project.

describe('language servers of an untrusted project', () => {
  let temp: ReturnType<typeof tempDir>;
  let marker: string;
  const services: LspService[] = [];

  beforeEach(() => {
    temp = tempDir('mewbo-lsp-trust-');
    marker = join(temp.dir, 'ran');
    writeProject(temp.dir, { 'a.ts': 'export const a = 1;\n' });
    const bin = join(temp.dir, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    const planted = join(bin, 'typescript-language-server');
    writeFileSync(planted, `#!/bin/sh\necho ran > '${marker}'\nexit 3\n`);
    chmodSync(planted, 0o755);
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.dispose()));
    temp.cleanup();
  });

  function diagnostics(trusted: boolean, path: string) {
    const config = configWith({});
    const lsp = new LspService({
      config: () => config,
      binDirs: [],
      env: { ...process.env, PATH: path },
      isTrusted: () => trusted,
    });
    services.push(lsp);
    return lspTool.run(toolContext(temp.dir, lsp, config), {
      operation: 'diagnostics',
      file_path: 'a.ts',
    });
  }

  it('a trusted project runs its own node_modules/.bin server (the unprotected path)', async () => {
    await diagnostics(true, '/nonexistent');
    expect(existsSync(marker)).toBe(true);
  });

  it('an untrusted project: node_modules/.bin is not searched, and the payload says why', async () => {
    const result = await diagnostics(false, '/nonexistent');
    expect(result).toMatchObject({ kind: 'error', code: 'server_not_installed' });
    expect(result.message).toContain('not searched until');
    expect(result.message).toContain('(workspace trust)');
    expect(existsSync(marker)).toBe(false);
  });

  it('an untrusted project: a PATH entry pointing into the project is refused by rule', async () => {
    const result = await diagnostics(false, join(temp.dir, 'node_modules', '.bin'));
    expect(result).toMatchObject({ kind: 'error', code: 'untrusted_project' });
    expect(result.message).toContain('workspace trust');
    expect(existsSync(marker)).toBe(false);
  });
});

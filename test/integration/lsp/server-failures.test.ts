import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CRASHES } from '../../../electron/host/lsp/constants';
import { LspService, type LspServiceOptions } from '../../../electron/host/lsp/lsp-service';
import type { ServerSandbox } from '../../../electron/host/lsp/server-registry';
import { lspTool } from '../../../electron/host/tools/lsp';
import { tempDir } from '../../helpers/temp';
import { configWith, toolContext, writeProject } from './lsp-fixtures';

// What happens when a server cannot serve: not installed, not configured, turned off, crashing at
// start, or required to run sandboxed. Each is one clear payload, and passive diagnostics stay quiet.

describe('language servers that cannot serve', () => {
  let temp: ReturnType<typeof tempDir>;
  const services: LspService[] = [];

  beforeEach(() => {
    temp = tempDir('mewbo-lsp-fail-');
    writeProject(temp.dir, {
      'a.ts': 'export const a = 1;\n',
      'b.rb': 'puts 1\n',
      'c.xyz': '?\n',
      'd.py': 'x: int = "s"\n',
      'e.crash': '\n',
    });
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.dispose()));
    temp.cleanup();
  });

  function setup(agent: Record<string, unknown>, opts: Partial<LspServiceOptions> = {}) {
    const config = configWith(agent);
    const lsp = new LspService({ config: () => config, ...opts });
    services.push(lsp);
    const ctx = toolContext(temp.dir, lsp, config);
    const diagnostics = (file: string) =>
      lspTool.run(ctx, { operation: 'diagnostics', file_path: file });
    return { lsp, diagnostics };
  }

  it('a built-in server missing from PATH and node_modules is one clear payload, and no process', async () => {
    const { lsp, diagnostics } = setup(
      {},
      { binDirs: [], env: { ...process.env, PATH: '/nonexistent' } },
    );
    const result = await diagnostics('a.ts');
    expect(result).toMatchObject({ kind: 'error', code: 'server_not_installed' });
    expect(result.message).toContain('typescript-language-server is not installed');
    expect(await lsp.diagnosticsAfterEdit(temp.dir, ['a.ts'])).toBeNull();
    expect(lsp.runningServers()).toEqual([]);
  });

  it('a configured server whose command does not exist says so by its config key', async () => {
    const { diagnostics } = setup({
      lsp: { servers: { ruby: { command: ['mewbo-no-such-lsp'], extensions: ['rb'] } } },
    });
    const result = await diagnostics('b.rb');
    expect(result).toMatchObject({ kind: 'error', code: 'server_not_installed' });
    expect(result.message).toContain('agent.lsp.servers.ruby.command');
  });

  it('a file no server handles names the extension and the configured servers', async () => {
    const { diagnostics } = setup({ lsp: { servers: { broken: { extensions: ['.xyz'] } } } });
    const result = await diagnostics('c.xyz');
    expect(result).toMatchObject({ kind: 'error', code: 'no_server' });
    expect(result.message).toContain('no language server handles .xyz files');
    expect(result.message).toContain('agent.lsp.servers.broken is missing command');
  });

  it('agent.lsp.enabled false and a disabled server both refuse without starting anything', async () => {
    const off = setup({ lsp: { enabled: false } });
    expect(await off.diagnostics('a.ts')).toMatchObject({ kind: 'error', code: 'lsp_disabled' });
    expect(await off.lsp.diagnosticsAfterEdit(temp.dir, ['a.ts'])).toBeNull();
    const noPyright = setup({ lsp: { servers: { pyright: { disabled: true } } } });
    expect(await noPyright.diagnostics('d.py')).toMatchObject({ kind: 'error', code: 'no_server' });
  });

  it(`a server that dies at start is retried, then given up after ${MAX_CRASHES} failures`, async () => {
    const command = [process.execPath, '-e', "console.error('boom: no config'); process.exit(3)"];
    const { diagnostics } = setup({
      lsp: { servers: { crashy: { command, extensions: ['.crash'] } } },
    });
    for (let i = 0; i < MAX_CRASHES; i++) {
      const result = await diagnostics('e.crash');
      expect(result).toMatchObject({ kind: 'error', code: 'server_failed' });
      expect(result.message).toContain('boom: no config');
    }
    const last = await diagnostics('e.crash');
    expect(last).toMatchObject({ kind: 'error', code: 'server_gave_up' });
    expect(last.message).toContain(`failed ${MAX_CRASHES} times`);
  });

  it("a server does not inherit the app's model keys", async () => {
    const command = [
      process.execPath,
      '-e',
      "console.error('key=' + (process.env.ANTHROPIC_API_KEY ?? 'none')); process.exit(1)",
    ];
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-secret' };
    const { diagnostics } = setup(
      { lsp: { servers: { envy: { command, extensions: ['.crash'] } } } },
      { env },
    );
    const result = await diagnostics('e.crash');
    expect(result.message).toContain('key=none');
    expect(result.message).not.toContain('sk-secret');
  });

  it('agent.server_sandbox without a launcher refuses to start servers unconfined', async () => {
    const { diagnostics } = setup({ server_sandbox: true });
    expect(await diagnostics('d.py')).toMatchObject({ kind: 'error', code: 'sandbox_unavailable' });
  });

  it('agent.server_sandbox starts the server through the launcher prefix', async () => {
    const marker = join(temp.dir, 'launched-by-sandbox');
    const seen: string[] = [];
    // A stand-in launcher: records that it ran and which project it confines, then execs the server.
    const sandbox: ServerSandbox = async (projectRoot, argv) => {
      seen.push(projectRoot);
      return { argv: ['/bin/sh', '-c', `echo $$ > '${marker}'; exec "$@"`, 'sandbox', ...argv] };
    };
    const { lsp, diagnostics } = setup({ server_sandbox: true }, { sandbox });
    expect(await diagnostics('d.py')).toMatchObject({ kind: 'lsp_diagnostics', total: 1 });
    expect(seen.length).toBe(1);
    expect(Number(readFileSync(marker, 'utf8'))).toBe(lsp.runningServers()[0]?.pid);
  });
});

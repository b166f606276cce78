import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspService } from '../../../electron/host/lsp/lsp-service';
import { LauncherSandbox } from '../../../electron/host/lsp/sandboxed-launch';
import {
  findInstallRoot,
  findLauncher,
  probeLandlock,
} from '../../../electron/host/sandbox/launcher';
import { lspTool } from '../../../electron/host/tools/lsp';
import { tempDir } from '../../helpers/temp';
import { configWith, toolContext, writeProject } from './lsp-fixtures';

// agent.server_sandbox through the real Landlock launcher: a real pyright still works confined,
// and a "server" that reads another configured project is refused by the kernel. Skipped where
// the launcher is not built or the kernel has no Landlock.

const installRoot = findInstallRoot(process.cwd());
const launcher = findLauncher(installRoot);
const landlock = launcher ? (await probeLandlock(launcher)).abi > 0 : false;

describe.runIf(landlock)('language servers under agent.server_sandbox', () => {
  const temp = tempDir('mewbo-lsp-sandbox-');
  const project = join(temp.dir, 'project');
  const other = join(temp.dir, 'other');
  const services: LspService[] = [];
  const sandboxes: LauncherSandbox[] = [];

  beforeAll(() => {
    writeProject(temp.dir, {
      'project/pyproject.toml': '',
      'project/app.py': 'x: int = "s"\n',
      'project/probe.peek': '\n',
      'other/secret.txt': 'other project data\n',
    });
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.dispose()));
    for (const s of sandboxes) s.dispose();
    temp.cleanup();
  });

  function service(sandboxOn: boolean) {
    // A "server" that reports whether it can read the other project, then exits.
    const peek = `try { require('fs').readFileSync(${JSON.stringify(join(other, 'secret.txt'))}); console.error('READ OK') } catch (e) { console.error('READ ' + e.code) } process.exit(1)`;
    const config = configWith({
      server_sandbox: sandboxOn,
      lsp: {
        servers: { peek: { command: [process.execPath, '-e', peek], extensions: ['.peek'] } },
      },
    });
    // The bundled servers live in the app's install, which harness_self_deny denies; a project
    // re-admits them through allowed_paths (servers on PATH or in the project need nothing).
    const allowed = [join(installRoot!, 'node_modules')];
    const projects = {
      project: { path: project, allowed_paths: allowed, description: '' },
      other: { path: other, allowed_paths: [], description: '' },
    };
    const withProjects = { ...config, projects };
    const sandbox = new LauncherSandbox({
      launcher,
      installRoot,
      homeDir: join(temp.dir, 'home'),
      config: () => withProjects,
    });
    const lsp = new LspService({ config: () => withProjects, sandbox: sandbox.wrap });
    sandboxes.push(sandbox);
    services.push(lsp);
    return toolContext(project, lsp, withProjects);
  }

  it('pyright answers from inside the sandbox', async () => {
    const ctx = service(true);
    const result = await lspTool.run(ctx, { operation: 'diagnostics', file_path: 'app.py' });
    expect(result).toMatchObject({ kind: 'lsp_diagnostics', server: 'pyright', total: 1 });
  });

  it('a sandboxed server cannot read another project; unsandboxed it can', async () => {
    const confined = await lspTool.run(service(true), {
      operation: 'diagnostics',
      file_path: 'probe.peek',
    });
    expect(confined).toMatchObject({ kind: 'error', code: 'server_failed' });
    expect(confined.message).toContain('READ EACCES');
    const open = await lspTool.run(service(false), {
      operation: 'diagnostics',
      file_path: 'probe.peek',
    });
    expect(open.message).toContain('READ OK');
  });
});

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

// A language server the way vscode-languageserver (pyright, typescript-language-server) watches
// its client: it probes the processId from initialize with kill(pid, 0) and exits when that
// fails. (vscode-languageserver probes every 3 s, so a real pyright dies only once a check takes
// longer than that, as on a loaded machine; this one probes at once.) It then publishes one
// diagnostic for any opened file.
const ALIVE_SERVER = `
let buf = Buffer.alloc(0);
const send = (m) => {
  const b = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }));
  process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n');
  process.stdout.write(b);
};
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const head = buf.indexOf('\\r\\n\\r\\n');
    if (head < 0) return;
    const len = Number(/Content-Length: (\\d+)/i.exec(buf.subarray(0, head).toString())[1]);
    if (buf.length < head + 4 + len) return;
    const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString());
    buf = buf.subarray(head + 4 + len);
    if (msg.method === 'initialize') {
      if (msg.params.processId !== null) {
        try { process.kill(msg.params.processId, 0); } catch (e) { console.error('client gone: ' + e.code); process.exit(1); }
      }
      send({ id: msg.id, result: { capabilities: { textDocumentSync: 1 } } });
    } else if (msg.method === 'textDocument/didOpen') {
      const uri = msg.params.textDocument.uri;
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
      send({ method: 'textDocument/publishDiagnostics', params: { uri, version: msg.params.textDocument.version, diagnostics: [{ range, message: 'seen', severity: 2 }] } });
    } else if (msg.method === 'shutdown') send({ id: msg.id, result: null });
    else if (msg.method === 'exit') process.exit(0);
    else if (msg.id !== undefined && msg.method) send({ id: msg.id, result: null });
  }
});
`;

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
      'project/probe.alive': '\n',
      'project/alive-server.js': ALIVE_SERVER,
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
        servers: {
          peek: { command: [process.execPath, '-e', peek], extensions: ['.peek'] },
          alive: {
            command: [process.execPath, join(project, 'alive-server.js')],
            extensions: ['.alive'],
          },
        },
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
    expect(result, JSON.stringify(result)).toMatchObject({
      kind: 'lsp_diagnostics',
      server: 'pyright',
      total: 1,
    });
  });

  it('a confined server is not handed a client pid it cannot signal (it would exit, taking it for dead)', async () => {
    // Unconfined, the probe reaches the host: the server lives and answers.
    const open = await lspTool.run(service(false), {
      operation: 'diagnostics',
      file_path: 'probe.alive',
    });
    expect(open, JSON.stringify(open)).toMatchObject({ kind: 'lsp_diagnostics', total: 1 });
    const confined = await lspTool.run(service(true), {
      operation: 'diagnostics',
      file_path: 'probe.alive',
    });
    expect(confined, JSON.stringify(confined)).toMatchObject({ kind: 'lsp_diagnostics', total: 1 });
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

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import type { McpServerSandbox } from '../../../electron/host/mcp/server-sandbox';
import { LauncherSandbox } from '../../../electron/host/lsp/sandboxed-launch';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import {
  findInstallRoot,
  findLauncher,
  probeLandlock,
} from '../../../electron/host/sandbox/launcher';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { tempDir } from '../../helpers/temp';
import { FAST_LIMITS, TRUST_ALL, byName, call, sessionRef } from './harness';

// agent.server_sandbox for MCP servers through the real Landlock launcher: a project's server
// cannot read another configured project, an app server reaches none; a refusing sandbox means
// the server is not started, never started unconfined. Skipped where Landlock is missing.
const installRoot = findInstallRoot(process.cwd());
const launcher = findLauncher(installRoot);
const probed = launcher ? await probeLandlock(launcher) : null;
const landlock = (probed?.abi ?? 0) > 0;
const networkConfinable = landlock && probed?.networkGap === null;

let serverJs: string;
let tmp: { dir: string; cleanup: () => void };
let project: string;
let other: string;
let sandbox: LauncherSandbox;
const managers: McpManager[] = [];

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  tmp = tempDir('mewbo-mcp-sandbox-');
  const root = realpathSync(tmp.dir);
  project = join(root, 'project');
  other = join(root, 'other');
  mkdirSync(project);
  mkdirSync(other);
  writeFileSync(join(project, 'mine.txt'), 'my own data\n');
  writeFileSync(join(other, 'secret.txt'), 'other project data\n');
  writeFileSync(
    join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [serverJs] } } }),
  );
  // The test server lives under the temp dir, node under its install: neither is denied.
  const config = parseConfig({
    agent: { server_sandbox: true },
    projects: { project: { path: project }, other: { path: other } },
  });
  sandbox = new LauncherSandbox({
    launcher,
    installRoot,
    homeDir: join(root, 'home'),
    config: () => config,
  });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(() => {
  sandbox?.dispose();
  tmp?.cleanup();
});

function manager(hook: McpServerSandbox | undefined, app = false): McpManager {
  const appServers: Record<string, McpServerConfig> = app
    ? { appsrv: { command: process.execPath, args: [serverJs], env: {}, disabled: false } }
    : {};
  const m = new McpManager({
    appServers,
    limits: FAST_LIMITS,
    sandbox: hook,
    trust: TRUST_ALL,
  });
  managers.push(m);
  return m;
}
const wrap: McpServerSandbox = (root, argv) =>
  sandbox.wrap(root ?? join(tmp.dir, 'no-project'), argv);

describe.runIf(landlock)('MCP servers under agent.server_sandbox', () => {
  it('a project’s server reads its own project but not another one; unsandboxed it could', async () => {
    const confined = await manager(wrap).toolsForRun(sessionRef(), project);
    expect(
      await call(byName(confined, 'mcp__local__read'), { path: join(project, 'mine.txt') }),
    ).toMatchObject({ text: 'my own data\n' });
    expect(
      await call(byName(confined, 'mcp__local__read'), { path: join(other, 'secret.txt') }),
    ).toMatchObject({ text: 'READ EACCES' });
    const open = await manager(undefined).toolsForRun(sessionRef(), project);
    expect(
      await call(byName(open, 'mcp__local__read'), { path: join(other, 'secret.txt') }),
    ).toMatchObject({ text: 'other project data\n' });
  });

  it('an app server reaches no configured project', async () => {
    const tools = await manager(wrap, true).toolsForRun(sessionRef(), null);
    expect(
      await call(byName(tools, 'mcp__appsrv__read'), { path: join(project, 'mine.txt') }),
    ).toMatchObject({ text: 'READ EACCES' });
  });
});

describe('a refusing server sandbox', () => {
  it('leaves the server not started, with the reason', async () => {
    const m = manager(async () => ({ refused: { message: 'the launcher is not built' } }), true);
    expect(await m.toolsForRun(sessionRef(), null)).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({
      state: 'failed',
      pid: null,
      error: 'not started: the launcher is not built',
    });
  });
});

describe.runIf(networkConfinable)('a server given a network grant', () => {
  it('connects to the granted port and no other, as a shell would', async () => {
    const servers: Server[] = ['GRANTED-PORT', 'OTHER-PORT'].map((reply) =>
      createServer((c) => c.end(reply)),
    );
    await Promise.all(servers.map((x) => new Promise<void>((r) => x.listen(0, '127.0.0.1', r))));
    const [granted, otherPort] = servers.map((x) => (x.address() as AddressInfo).port);
    const config = parseConfig({ agent: { server_sandbox: true } });
    const netSandbox = new LauncherSandbox({
      launcher,
      installRoot,
      homeDir: join(tmp.dir, 'home'),
      config: () => config,
      network: async () => ({ grant: { connectPorts: [granted!] }, env: {} }),
    });
    const client = `const net = require('net');
for (const port of [${granted}, ${otherPort}]) {
  net.connect(port, '127.0.0.1').on('data', (d) => console.log(port, String(d))).on('error', (e) => console.log(port, e.code));
}`;
    try {
      const wrapped = await netSandbox.wrap(project, [process.execPath, '-e', client]);
      if ('refused' in wrapped) throw new Error(wrapped.refused.message);
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(wrapped.argv[0]!, wrapped.argv.slice(1), {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let text = '';
        child.stdout.on('data', (d) => (text += String(d)));
        child.on('error', reject);
        child.on('close', () => resolve(text));
        child.stdin.end(wrapped.stdinPrefix);
      });
      expect(out).toContain(`${granted} GRANTED-PORT`);
      expect(out).toContain(`${otherPort} EACCES`);
      expect(out).not.toContain('OTHER-PORT');
    } finally {
      netSandbox.dispose();
      await Promise.all(servers.map((x) => new Promise((r) => x.close(r))));
    }
  });
});

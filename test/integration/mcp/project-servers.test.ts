import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { tempDir } from '../../helpers/temp';
import {
  FAST_LIMITS,
  TRUST_ALL,
  alive,
  byName,
  call,
  sessionRef,
  switchableTrust,
  waitFor,
} from './harness';
import type { McpTrust } from '../../../electron/host/mcp/mcp-manager';

let serverJs: string;
let tmp: { dir: string; cleanup: () => void };
const managers: McpManager[] = [];

function project(name: string, servers: Record<string, unknown> | string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, '.mcp.json'),
    typeof servers === 'string' ? servers : JSON.stringify({ mcpServers: servers }),
  );
  return realpathSync(dir);
}
const srv = (...args: string[]) => ({ command: process.execPath, args: [serverJs, ...args] });
function manager(
  appServers: Record<string, McpServerConfig> = {},
  trust: McpTrust = TRUST_ALL,
): McpManager {
  const m = new McpManager({ appServers, trust, limits: FAST_LIMITS });
  managers.push(m);
  return m;
}
const pidsOf = async (m: McpManager, scope: 'app' | 'project') =>
  (await m.servers()).filter((s) => s.scope === scope && s.pid).map((s) => s.pid!);

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  tmp = tempDir('mewbo-mcp-proj-');
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(() => tmp.cleanup());

describe("a project's .mcp.json servers", () => {
  it('start in the project root with namespaced tools, and ${VAR} left literal (never the host env)', async () => {
    const root = project('env', {
      local: {
        ...srv(),
        env: {
          GREETING: '${MEWBO_TEST_GREETING:-hello from default}',
          TOKEN: '${MEWBO_TEST_TOKEN}',
          PLAIN: 'as written',
        },
      },
    });
    process.env.MEWBO_TEST_TOKEN = 'secret-1';
    const m = manager();
    const tools = await m.toolsForRun(sessionRef(), root).finally(() => {
      delete process.env.MEWBO_TEST_TOKEN;
    });
    expect(await call(byName(tools, 'mcp__local__cwd'))).toMatchObject({ text: root });
    expect(await call(byName(tools, 'mcp__local__env'), { name: 'GREETING' })).toMatchObject({
      text: '${MEWBO_TEST_GREETING:-hello from default}',
    });
    expect(await call(byName(tools, 'mcp__local__env'), { name: 'TOKEN' })).toMatchObject({
      text: '${MEWBO_TEST_TOKEN}',
    });
    expect(await call(byName(tools, 'mcp__local__env'), { name: 'PLAIN' })).toMatchObject({
      text: 'as written',
    });
    expect((await m.servers())[0]).toMatchObject({
      id: `project:${root}:local`,
      scope: 'project',
      root,
      state: 'running',
    });
  });

  it('stop with the last session that holds the project', async () => {
    const root = project('shared', { p: srv() });
    const m = manager();
    const a = sessionRef();
    const b = sessionRef();
    await m.toolsForRun(a, root);
    await m.toolsForRun(b, root);
    const [pid] = await pidsOf(m, 'project');
    expect((await m.servers()).length).toBe(1);
    await a.resources.dispose();
    expect(alive(pid!)).toBe(true);
    await b.resources.dispose();
    await waitFor('the project server to exit', () => !alive(pid!));
    expect(await m.servers()).toEqual([]);
  });

  it('stop when the session starts a run in another project, while app servers keep running', async () => {
    const one = project('one', { p1: srv() });
    const two = project('two', { p2: srv() });
    const m = manager({ common: { ...srv(), env: {}, disabled: false } });
    const s = sessionRef();
    await m.toolsForRun(s, one);
    const [p1] = await pidsOf(m, 'project');
    const [app] = await pidsOf(m, 'app');
    const tools = await m.toolsForRun(s, two);
    expect(tools.map((t) => t.name.split('__')[1])).toEqual(
      expect.arrayContaining(['common', 'p2']),
    );
    expect(tools.some((t) => t.name.startsWith('mcp__p1__'))).toBe(false);
    await waitFor('project one’s server to exit', () => !alive(p1!));
    expect(alive(app!)).toBe(true);
  });

  it('cannot take the name of an app server, and that clash is reported', async () => {
    const root = project('clash', { common: srv('--name', 'impostor'), ok: srv() });
    const m = manager({ common: { ...srv(), env: {}, disabled: false } });
    const tools = await m.toolsForRun(sessionRef(), root);
    expect(tools.filter((t) => t.name === 'mcp__common__echo')).toHaveLength(1);
    expect(byName(tools, 'mcp__ok__echo')).toBeDefined();
    const clash = (await m.servers()).find((s) => s.scope === 'project' && s.name === 'common')!;
    expect(clash).toMatchObject({ state: 'failed' });
    expect(clash.error).toContain("'common' is already an app server");
  });

  it('report a malformed .mcp.json and a bad entry by file and key', async () => {
    const broken = project('badjson', '{ "mcpServers": ');
    const badEntry = project('badentry', { nocommand: { args: ['x'] }, good: srv() });
    const m = manager();
    expect(await m.toolsForRun(sessionRef(), broken)).toEqual([]);
    expect((await m.servers())[0]!.error).toMatch(/\.mcp\.json: not valid JSON/);
    const tools = await m.toolsForRun(sessionRef(), badEntry);
    expect(byName(tools, 'mcp__good__echo')).toBeDefined();
    const bad = (await m.servers()).find((s) => s.name === 'nocommand')!;
    expect(bad.error).toMatch(/mcpServers\.nocommand/);
  });
});

describe('narrowing after switch_project', () => {
  it('keeps held app tools, drops the old project’s, and never starts the new project’s servers', async () => {
    const a = project('narrow-a', { alpha: srv() });
    const b = project('narrow-b', { beta: srv() });
    const m = manager({ common: { ...srv(), env: {}, disabled: false } });
    const s = sessionRef();
    const held = new Set((await m.toolsForRun(s, a)).map((t) => t.name));
    expect([...held].some((n) => n.startsWith('mcp__alpha__'))).toBe(true);
    const inB = await m.toolsAfterSwitch(s, b, held);
    expect(inB.length).toBeGreaterThan(0);
    expect(inB.every((t) => t.name.startsWith('mcp__common__'))).toBe(true);
    expect((await m.servers()).some((x) => x.name === 'beta')).toBe(false);
    // Switching back restores the tools the run started with.
    const back = await m.toolsAfterSwitch(s, a, held);
    expect(new Set(back.map((t) => t.name))).toEqual(held);
  });
});

describe('workspace trust', () => {
  it("an untrusted project's servers are listed with the rule and what they would run, never started", async () => {
    const root = project('untrusted', { local: srv() });
    const m = manager({}, switchableTrust());
    const tools = await m.toolsForRun(sessionRef(), root);
    expect(tools).toEqual([]);
    const [status] = await m.servers();
    expect(status).toMatchObject({ name: 'local', state: 'disabled', pid: null });
    expect(status!.error).toContain('not a trusted project (workspace trust)');
    expect(status!.error).toContain(process.execPath);
  });

  it('trusting a held project starts its servers; revoking stops them', async () => {
    const root = project('retrust', { local: srv() });
    const trust = switchableTrust();
    const m = manager({}, trust);
    const s = sessionRef();
    await m.toolsForRun(s, root);
    expect(await pidsOf(m, 'project')).toEqual([]);
    trust.set(root, true);
    const [pid] = await waitFor('the trusted project server to start', async () => {
      const pids = await pidsOf(m, 'project');
      return pids.length ? pids : undefined;
    });
    expect(byName(await m.toolsForRun(s, root), 'mcp__local__echo')).toBeDefined();
    trust.set(root, false);
    await waitFor('the revoked project server to exit', () => !alive(pid!));
    expect((await m.servers())[0]).toMatchObject({ state: 'disabled' });
    expect(await m.toolsForRun(s, root)).toEqual([]);
  });
});

describe("a project whose HTTP servers the host refuses (a remote project's copy)", () => {
  it('leaves its HTTP server failed with the reason and never connects it; another project connects', async () => {
    const hits: string[] = [];
    const service = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const refused = project('remote-copy', { web: { type: 'http', url: `${url}/refused` } });
      const local = project('local-http', { web: { type: 'http', url: `${url}/local` } });
      const m = new McpManager({
        appServers: {},
        trust: TRUST_ALL,
        limits: FAST_LIMITS,
        projectHttpRefusal: (root) => (root === refused ? 'its addresses are the host’s' : null),
      });
      managers.push(m);
      expect(await m.toolsForRun(sessionRef(), refused)).toEqual([]);
      expect((await m.servers()).find((s) => s.scope === 'project')).toMatchObject({
        state: 'failed',
        error: 'not started: its addresses are the host’s',
      });
      await m.toolsForRun(sessionRef(), local);
      expect(hits).toContain('/local');
      expect(hits).not.toContain('/refused');
    } finally {
      service.close();
    }
  });
});

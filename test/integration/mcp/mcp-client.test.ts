import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { FAST_LIMITS, alive, byName, call, sessionRef, waitFor } from './harness';

let serverJs: string;
const managers: McpManager[] = [];
const stdio = (...args: string[]): McpServerConfig => ({
  command: process.execPath,
  args: [serverJs, ...args],
  env: {},
  disabled: false,
});
function manager(appServers: Record<string, McpServerConfig>): McpManager {
  const m = new McpManager({ appServers, limits: FAST_LIMITS });
  managers.push(m);
  return m;
}

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
});

describe('MCP client over stdio (own test server)', () => {
  it('lists a server’s tools as namespaced, deferrable tools and calls them', async () => {
    const m = manager({ testsrv: stdio() });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['mcp__testsrv__echo', 'mcp__testsrv__add', 'mcp__testsrv__crash']),
    );
    expect(tools.every((t) => t.name.startsWith('mcp__testsrv__') && t.flags.deferrable)).toBe(
      true,
    );
    const echo = byName(tools, 'mcp__testsrv__echo')!;
    expect(echo.flags).toMatchObject({ readOnly: true, approval: 'none' });
    expect(byName(tools, 'mcp__testsrv__add')!.flags).toMatchObject({
      readOnly: false,
      approval: 'shell',
    });
    expect(echo.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(await call(echo, { text: 'hello' })).toMatchObject({
      kind: 'mcp_result',
      server: 'testsrv',
      tool: 'echo',
      text: 'echo: hello',
    });
    expect(await call(byName(tools, 'mcp__testsrv__add'), { a: 2, b: 40 })).toMatchObject({
      text: '42',
    });
  });

  it('returns a tool error and a bad-arguments error as error payloads, not exceptions', async () => {
    const m = manager({ testsrv: stdio() });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__testsrv__fail'))).toMatchObject({
      kind: 'error',
      code: 'mcp_tool_error',
      message: 'it failed on purpose',
    });
    const bad = await call(byName(tools, 'mcp__testsrv__add'), { a: 'two' });
    expect(bad).toMatchObject({
      kind: 'error',
      code: 'mcp_tool_error',
      details: { server: 'testsrv', tool: 'add' },
    });
    expect(bad.message).toMatch(/expected number, received string at a/);
  });

  it('cuts a result over the size limit and keeps its head, its tail and a note', async () => {
    const m = manager({ testsrv: stdio() });
    const big = byName(await m.toolsForRun(sessionRef(), null), 'mcp__testsrv__big');
    const out = await call(big, { chars: FAST_LIMITS.resultMaxChars * 2 });
    const text = out.text as string;
    expect(text.startsWith('HEAD')).toBe(true);
    expect(text.endsWith('TAIL')).toBe(true);
    expect(text).toMatch(
      /characters cut here: the result was 200000 characters, over the 100000-character limit/,
    );
    expect(out.truncated).toEqual({ total_chars: 200_000, shown_chars: 100_000 });
    expect(text.length).toBeLessThan(100_400);
  });

  it('reports a server that fails to start, with its stderr, while the others still work', async () => {
    const m = manager({ broken: stdio('--fail-start'), testsrv: stdio() });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(tools.some((t) => t.name.startsWith('mcp__broken__'))).toBe(false);
    expect(await call(byName(tools, 'mcp__testsrv__echo'), { text: 'still here' })).toMatchObject({
      text: 'echo: still here',
    });
    const broken = (await m.servers()).find((s) => s.name === 'broken')!;
    expect(broken).toMatchObject({
      state: 'failed',
      scope: 'app',
      transport: 'stdio',
      restarts: 0,
    });
    expect(broken.stderr_tail).toContain('cannot start: TEST_TOKEN is not set');
    expect(broken.error).toContain('TEST_TOKEN is not set');
  });

  it('reports a command that does not exist', async () => {
    const m = manager({
      nosuch: { command: '/nonexistent/mcp-server', args: [], env: {}, disabled: false },
    });
    await m.toolsForRun(sessionRef(), null);
    const s = (await m.servers())[0]!;
    expect(s.state).toBe('failed');
    expect(s.error).toMatch(/ENOENT/);
  });

  it('restarts a server killed with SIGKILL and its tools work again with a new process', async () => {
    const m = manager({ testsrv: stdio() });
    const session = sessionRef();
    const first = Number(
      (await call(byName(await m.toolsForRun(session, null), 'mcp__testsrv__pid'))).text,
    );
    process.kill(first, 'SIGKILL');
    const status = await waitFor('a restarted server', async () =>
      (await m.servers()).find((s) => s.state === 'running' && s.pid !== first),
    );
    expect(status.restarts).toBe(1);
    const second = Number(
      (await call(byName(await m.toolsForRun(session, null), 'mcp__testsrv__pid'))).text,
    );
    expect(second).not.toBe(first);
    expect(alive(first)).toBe(false);
  });

  it('fails a call whose server dies during it, then serves the next call after the restart', async () => {
    const m = manager({ testsrv: stdio() });
    const tools = await m.toolsForRun(sessionRef(), null);
    const died = await call(byName(tools, 'mcp__testsrv__crash'));
    expect(died).toMatchObject({ kind: 'error', code: 'mcp_unavailable' });
    // The adapter holds the connection, so the same tool object works once the server is back.
    expect(await call(byName(tools, 'mcp__testsrv__echo'), { text: 'back' })).toMatchObject({
      text: 'echo: back',
    });
  });

  it('gives up on a server that keeps crashing after the restart budget and says so', async () => {
    const m = manager({ flaky: stdio('--exit-after', '200') });
    await m.toolsForRun(sessionRef(), null);
    const s = await waitFor('the restart budget to run out', async () =>
      (await m.servers()).find((x) => x.state === 'failed'),
    );
    expect(s.restarts).toBe(FAST_LIMITS.maxRestarts);
    expect(s.error).toMatch(/^gave up after 5 restarts: exited unexpectedly/);
    // A manual restart gets a whole budget again.
    expect(await m.restart(s.id)).toMatchObject({ state: 'running', restarts: 0, error: null });
  });

  it('follows a server’s tool list change', async () => {
    const m = manager({ testsrv: stdio() });
    const session = sessionRef();
    await call(byName(await m.toolsForRun(session, null), 'mcp__testsrv__grow'));
    const tools = await waitFor('the grown tool', async () => {
      const t = await m.toolsForRun(session, null);
      return byName(t, 'mcp__testsrv__grown_1') ? t : undefined;
    });
    expect(await call(byName(tools, 'mcp__testsrv__grown_1'))).toMatchObject({ text: 'grown_1' });
  });

  it('stops every server process when disposed', async () => {
    const m = new McpManager({
      appServers: { a: stdio(), b: stdio() },
      limits: FAST_LIMITS,
    });
    await m.toolsForRun(sessionRef(), null);
    const pids = (await m.servers()).map((s) => s.pid!);
    expect(pids.every((p) => p > 0 && alive(p))).toBe(true);
    await m.dispose();
    await waitFor('server processes to exit', () => pids.every((p) => !alive(p)));
    expect((await m.servers()).map((s) => s.state)).toEqual(['stopped', 'stopped']);
  });

  it('leaves a disabled server unstarted', async () => {
    const m = manager({ off: { ...stdio(), disabled: true } });
    expect(await m.toolsForRun(sessionRef(), null)).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({ state: 'disabled', pid: null });
  });
});

describe('MCP client over streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [serverJs, '--http', '--name', 'web'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', () => reject(new Error('http test server exited')));
    });
    url = (JSON.parse(line) as { url: string }).url;
  });
  afterAll(() => {
    child.kill('SIGKILL');
  });

  it('lists and calls tools of an HTTP server', async () => {
    const m = manager({ web: { type: 'http', url, headers: {}, disabled: false } });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(byName(tools, 'mcp__web__echo')).toBeDefined();
    expect(await call(byName(tools, 'mcp__web__add'), { a: 1, b: 2 })).toMatchObject({
      kind: 'mcp_result',
      text: '3',
    });
    expect((await m.servers())[0]).toMatchObject({
      transport: 'http',
      state: 'running',
      pid: null,
    });
  });

  it('reports an HTTP server that is not listening', async () => {
    const m = manager({
      gone: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {}, disabled: false },
    });
    expect(await m.toolsForRun(sessionRef(), null)).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({ state: 'failed' });
  });
});

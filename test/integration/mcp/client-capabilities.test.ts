import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { tempDir } from '../../helpers/temp';
import { FAST_LIMITS, byName, sessionRef, toolContext, waitFor } from './harness';

// What the app's MCP client declares and answers, against a real server process written with the
// SDK (test/helpers/mcp-test-server.ts): roots (the session's project, list_changed on a switch),
// progress handed to the call's tool card, cancellation reaching the server, and the server's log
// messages kept for its log view.

let serverJs: string;
let dirs: ReturnType<typeof tempDir>;
const managers: McpManager[] = [];

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  dirs = tempDir('mewbo-mcp-caps-');
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  dirs.cleanup();
});

function manager(...args: string[]): McpManager {
  const config: McpServerConfig = {
    command: process.execPath,
    args: [serverJs, ...args],
    env: {},
    disabled: false,
  };
  const m = new McpManager({ appServers: { testsrv: config }, limits: FAST_LIMITS });
  managers.push(m);
  return m;
}

function project(name: string): string {
  const dir = join(dirs.dir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const textOf = (payload: unknown) => (payload as { text: string }).text;

describe('MCP client capabilities', () => {
  it("answers roots/list with the session's project, and announces the change when it switches", async () => {
    const m = manager();
    const a = project('alpha');
    const b = project('beta');
    const session = sessionRef();
    const tools = await m.toolsForRun(session, a);
    const roots = byName(tools, 'mcp__testsrv__roots')!;
    const changes = byName(tools, 'mcp__testsrv__roots_changes')!;
    expect(JSON.parse(textOf(await roots.run(toolContext(a), {})))).toEqual([
      { uri: pathToFileURL(a).href, name: 'alpha' },
    ]);
    const before = Number(textOf(await changes.run(toolContext(a), {})));

    await m.toolsAfterSwitch(
      session,
      b,
      tools.map((t) => t.name),
    );
    await waitFor('roots/list_changed at the server', async () =>
      Number(textOf(await changes.run(toolContext(b), {}))) > before ? true : undefined,
    );
    expect(JSON.parse(textOf(await roots.run(toolContext(b), {})))).toEqual([
      { uri: pathToFileURL(b).href, name: 'beta' },
    ]);
    // The session ends: no project is left to offer.
    await session.resources.dispose();
    expect(JSON.parse(textOf(await roots.run(toolContext(b), {})))).toEqual([]);
  });

  it("hands the server's progress to the call, and Stop cancels the call on the server", async () => {
    const mark = project('mark');
    const m = manager('--mark', mark);
    const tools = await m.toolsForRun(sessionRef(), null);
    const stop = new AbortController();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const ctx = {
      ...toolContext(),
      signal: stop.signal,
      progress: (p: { progress: number; total?: number; message?: string }) => {
        seen.push(p);
        if (seen.length === 2) stop.abort();
      },
    };
    const payload = await byName(tools, 'mcp__testsrv__slow')!.run(ctx, {});
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
    ]);
    expect(payload).toMatchObject({
      kind: 'error',
      code: 'mcp_unavailable',
      message: 'the call was cancelled',
    });
    // The server saw notifications/cancelled for that request and stopped the work.
    await waitFor('the server to see the cancellation', () => existsSync(join(mark, 'cancelled')));
    expect(readFileSync(join(mark, 'cancelled'), 'utf8')).toMatch(/^\d+$/);
  });

  it("keeps the server's log messages for its log view, level and logger first", async () => {
    const m = manager();
    const tools = await m.toolsForRun(sessionRef(), null);
    await byName(tools, 'mcp__testsrv__log')!.run(toolContext(), { text: 'hello' });
    const status = await waitFor('the log lines', async () => {
      const s = (await m.servers()).find((x) => x.name === 'testsrv')!;
      return s.log_tail.length >= 2 ? s : undefined;
    });
    expect(status.log_tail).toEqual(['info [testsrv] info hello', 'error {"said":"hello"}']);
    expect(status.stderr_tail).toEqual([]);
  });

  it('lists the resources and prompts a server offers, and follows its prompt list changes', async () => {
    const m = manager();
    const tools = await m.toolsForRun(sessionRef(), null);
    const status = async () => (await m.servers()).find((x) => x.name === 'testsrv')!;
    expect((await status()).resources).toEqual([
      { uri: 'test://readme', name: 'readme', description: 'The project readme' },
      { uri: 'test://big', name: 'big', description: 'A log longer than an attachment may be' },
    ]);
    expect((await status()).prompts).toEqual([
      { name: 'review', description: 'Review the current change' },
      { name: 'greet', description: 'Greets someone' },
    ]);
    await byName(tools, 'mcp__testsrv__add_prompt')!.run(toolContext(), {});
    await waitFor('the new prompt', async () =>
      (await status()).prompts.some((p) => p.name === 'added') ? true : undefined,
    );
  });
});

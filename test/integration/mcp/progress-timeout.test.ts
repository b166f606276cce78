import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import { parseConfig } from '../../../electron/host/config/load-config';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { FAST_LIMITS, byName, sessionRef, toolContext } from './harness';

// A call's timeout is a limit on silence, not on work: each progress notification from the server
// starts the clock again (the SDK's resetTimeoutOnProgress, fed by the call's progress handler).
// The server's `call_timeout_s` is set to one second in its config; the test server's `ticks` tool
// works three seconds either way, with or without a progress notification every 100 ms.

let serverJs: string;
const managers: McpManager[] = [];

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
});

async function ticksTool() {
  const config = parseConfig({
    mcpServers: {
      testsrv: { command: process.execPath, args: [serverJs], call_timeout_s: 1 },
    },
  });
  const m = new McpManager({ appServers: config.mcpServers, limits: FAST_LIMITS });
  managers.push(m);
  return byName(await m.toolsForRun(sessionRef(), null), 'mcp__testsrv__ticks')!;
}

describe('MCP call timeout and progress', () => {
  it('lets a call that keeps sending progress run past its timeout to its answer', async () => {
    const tool = await ticksTool();
    const seen: number[] = [];
    const payload = await tool.run(
      { ...toolContext(), progress: (p: { progress: number }) => seen.push(p.progress) },
      { ms: 3000, every: 100, progress: true },
    );
    expect(payload).toMatchObject({ text: 'done' });
    // Three seconds of work against a one-second limit: the notifications carried it through.
    expect(seen.length).toBeGreaterThanOrEqual(10);
  });

  it('ends a call that sends no progress at its timeout, saying why', async () => {
    const tool = await ticksTool();
    const payload = await tool.run(toolContext(), { ms: 3000, every: 100, progress: false });
    expect(payload).toMatchObject({
      kind: 'error',
      code: 'mcp_timeout',
      message:
        "MCP server 'testsrv' sent neither an answer nor progress for 'ticks' within 1 s, so the call was ended and cancelled on the server",
    });
  });
});

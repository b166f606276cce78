import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';

// Deferral inside a real run: a scripted model sees only tool_search for the MCP tools, fetches
// one by name, gets it bound on the next request, calls it; after a restart the next run still
// has it bound (discovery replayed from the log).
let serverJs: string;
let h: Harness | undefined;
beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('tool_search in a run', () => {
  it('binds a deferred MCP tool once fetched, and keeps it bound after a restart', async () => {
    h = await Harness.start({
      config: {
        permission_mode: 'auto',
        agent: { tool_search: 'on' },
        mcpServers: { srv: { command: process.execPath, args: [serverJs] } },
      },
    });
    h.script.push(
      { toolCalls: [{ name: 'tool_search', args: { query: 'echo text back' } }] },
      { toolCalls: [{ name: 'mcp__srv__echo', args: { text: 'hi' } }] },
      { text: 'Echoed.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'Echo hi.'));
    const [search, echo] = ofType(events, 'tool_result');
    expect((search!.payload as unknown as { tools: { name: string }[] }).tools[0]!.name).toBe(
      'mcp__srv__echo',
    );
    expect(echo!.payload).toMatchObject({ kind: 'mcp_result', text: 'echo: hi' });
    const [first, second] = h.script.requests;
    expect(first!.tools).toContain('tool_search');
    expect(first!.tools.some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(
      first!.body.tools.find((t: { name: string }) => t.name === 'tool_search').description,
    ).toContain('mcp__srv__echo');
    expect(second!.tools).toContain('mcp__srv__echo');
    expect(second!.tools).not.toContain('mcp__srv__add');

    await h.restart();
    h.script.push({ text: 'Still here.' });
    await h.waitRunEnd(id, await h.send(id, 'Again.'));
    expect(h.script.requests.at(-1)!.tools).toContain('mcp__srv__echo');
  });
});

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

/** A harness whose tools are deferred behind tool_search, with the test MCP server as `srv`. */
async function startWithServer(): Promise<Harness> {
  return Harness.start({
    config: {
      permission_mode: 'auto',
      agent: { tool_search: 'on' },
      mcpServers: { srv: { command: process.execPath, args: [serverJs] } },
    },
  });
}

describe('tool_search in a run', () => {
  it('binds a deferred MCP tool once fetched, and keeps it bound after a restart', async () => {
    h = await startWithServer();
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

  // Seed, tool_search: "sub-agents reach the root's deferred tools through it", and "search never
  // widens scope".
  it("a sub-agent reaches the root's deferred tools through its own tool_search, and no further than it was granted", async () => {
    h = await startWithServer();
    h.script.push(
      { toolCalls: [{ name: 'spawn_agent', args: { task: 'Echo hi with the echo tool.' } }] },
      { toolCalls: [{ name: 'tool_search', args: { query: 'select:mcp__srv__echo' } }] },
      { toolCalls: [{ name: 'mcp__srv__echo', args: { text: 'hi' } }] },
      { text: 'It said echo: hi.' },
      { text: 'The sub-agent echoed.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'Have a sub-agent echo hi.'));
    expect(ofType(events, 'error')).toEqual([]);
    const subId = ofType(events, 'subagent')[0]!.agent_id;
    const [root, subFirst, subSecond] = h.script.requests;
    // The root never fetched the tool: it is deferred for the root and for the sub-agent alike.
    expect(root!.tools.some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(subFirst!.transcript).toContain('Echo hi with the echo tool.');
    expect(subFirst!.tools).toContain('tool_search');
    expect(subFirst!.tools.some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(
      subFirst!.body.tools.find((t: { name: string }) => t.name === 'tool_search').description,
    ).toContain('mcp__srv__echo');
    expect(subSecond!.tools).toContain('mcp__srv__echo');
    const echo = ofType(events, 'tool_result').find((r) => r.name === 'mcp__srv__echo')!;
    expect(echo.agent_id).toBe(subId);
    expect(echo.payload).toMatchObject({ kind: 'mcp_result', text: 'echo: hi' });
    // Fetching for the sub-agent bound nothing for the root.
    expect(h.script.requests.at(-1)!.tools.some((t) => t.startsWith('mcp__'))).toBe(false);

    // A sub-agent granted only one of the deferred tools finds nothing beyond it.
    h.script.push(
      {
        toolCalls: [
          { name: 'spawn_agent', args: { task: 'Echo again.', tools: ['mcp__srv__add'] } },
        ],
      },
      { toolCalls: [{ name: 'tool_search', args: { query: 'select:mcp__srv__echo' } }] },
      { text: 'Could not.' },
      { text: 'It could not.' },
    );
    const from = await h.send(id, 'Again, with the add tool only.');
    const more = (await h.waitRunEnd(id, from)).filter((e) => e.seq >= from);
    const narrowed = ofType(more, 'subagent')[0]!.agent_id;
    const search = ofType(more, 'tool_result').find(
      (r) => r.name === 'tool_search' && r.agent_id === narrowed,
    )!;
    expect(search.payload).toMatchObject({
      kind: 'tool_search',
      tools: [],
      not_found: ['mcp__srv__echo'],
      searched: 1,
    });
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import { applyDeferral } from '../../../electron/host/tool-search/deferral';
import { serverEverythingEntry } from '../../helpers/mcp-test-server-build';
import { FAST_LIMITS, alive, byName, call, sessionRef, waitFor } from './harness';

// The published reference server (@modelcontextprotocol/server-everything), run in stdio mode.
const m = new McpManager({
  appServers: {
    everything: {
      command: process.execPath,
      args: [serverEverythingEntry(), 'stdio'],
      env: {},
      disabled: false,
    },
  },
  limits: FAST_LIMITS,
});
afterAll(() => m.dispose());

describe('@modelcontextprotocol/server-everything', () => {
  it('lists its tools under mcp__everything__ and calls echo and get-sum', async () => {
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-sum',
        'mcp__everything__get-tiny-image',
      ]),
    );
    expect(await call(byName(tools, 'mcp__everything__echo'), { message: 'hi' })).toMatchObject({
      kind: 'mcp_result',
      text: 'Echo: hi',
    });
    expect(await call(byName(tools, 'mcp__everything__get-sum'), { a: 2, b: 3 })).toMatchObject({
      text: 'The sum of 2 and 3 is 5.',
    });
  });

  it('names an image instead of inlining its base64', async () => {
    const tools = await m.toolsForRun(sessionRef(), null);
    const out = await call(byName(tools, 'mcp__everything__get-tiny-image'));
    expect(out.kind).toBe('mcp_result');
    expect(out.omitted).toEqual([
      expect.objectContaining({ type: 'image', mime_type: 'image/png' }),
    ]);
    expect(out.text).toMatch(/\[image image\/png, \d+ bytes, not shown\]/);
  });

  it('is deferred in on mode and tool_search fetches get-sum by its exact name', async () => {
    const tools = await m.toolsForRun(sessionRef(), null);
    const r = applyDeferral({ tools, mode: 'on', threshold: 25, fetchedNames: [] });
    expect(r.bound.map((t) => t.name)).toEqual(['tool_search']);
    const search = r.bound[0]!;
    const found = await call(search, { query: 'get-sum' });
    expect((found.tools as { name: string; input_schema: unknown }[])[0]).toMatchObject({
      name: 'mcp__everything__get-sum',
      input_schema: {
        type: 'object',
        properties: { a: expect.any(Object), b: expect.any(Object) },
      },
    });
    const next = applyDeferral({
      tools,
      mode: 'on',
      threshold: 25,
      fetchedNames: ['mcp__everything__get-sum'],
    });
    expect(next.bound.map((t) => t.name)).toEqual(['mcp__everything__get-sum', 'tool_search']);
  });

  it('comes back after being killed', async () => {
    const before = (await m.servers())[0]!;
    process.kill(before.pid!, 'SIGKILL');
    const after = await waitFor('server-everything to restart', async () =>
      (await m.servers()).find((s) => s.state === 'running' && s.pid !== before.pid),
    );
    expect(alive(before.pid!)).toBe(false);
    expect(after.restarts).toBe(1);
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__everything__echo'), { message: 'again' })).toMatchObject({
      text: 'Echo: again',
    });
  });
});

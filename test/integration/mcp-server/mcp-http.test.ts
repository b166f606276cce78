import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from '../../unit/tools/harness';
import { waitFor } from '../mcp/harness';
import {
  goodHeaders,
  httpRequest,
  printToken,
  sseRequest,
  startMcpHttp,
  type McpHttpProcess,
} from '../../helpers/mcp-http-process';

// `mewbo mcp --http` driven by the MCP SDK's own client over real HTTP: the same tools as the
// stdio server, sessions, resumption of a stream from its Last-Event-ID, and the token file.

let fx: Fixture | undefined;
let server: McpHttpProcess | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.stop();
  server = undefined;
  fx?.cleanup();
});

async function serve(extra: string[] = []): Promise<McpHttpProcess> {
  fx = makeFixture();
  writeFileSync(join(fx.root, 'a.txt'), 'alpha\nbeta\n');
  server = await startMcpHttp(fx.home, fx.root, extra);
  return server;
}

async function connect(
  s: McpHttpProcess,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(s.url), {
    requestInit: { headers: { authorization: `Bearer ${s.token}` } },
  });
  const client = new Client({ name: 'mewbo-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

function text(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Record<
    string,
    unknown
  >;
}

describe('mewbo mcp --http', () => {
  it('serves the tools over Streamable HTTP: list, call, and an edit that lands on disk', async () => {
    const { client } = await connect(await serve());
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_file');
    expect(names).toContain('file_edit_tool');
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    expect(text(read)).toMatchObject({ kind: 'file', total_lines: 2 });
    const edit = await client.callTool({
      name: 'file_edit_tool',
      arguments: { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' },
    });
    expect(edit.isError).toBe(false);
    expect(
      text(await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })),
    ).toMatchObject({
      content: expect.stringContaining('gamma'),
    });
  });

  it('an unknown tool is JSON-RPC error -32602 naming it, and the session keeps serving', async () => {
    const { client } = await connect(await serve());
    const err = await client
      .callTool({ name: 'no_such_tool', arguments: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((err as McpError).message).toMatch(/no_such_tool/);
    expect(
      (await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })).isError,
    ).toBe(false);
  });

  it('logs: a client sets its level, and a call ending in an error is a warning, below the level nothing', async () => {
    const { client } = await connect(await serve());
    const logged: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params);
    });
    expect(client.getServerCapabilities()?.logging).toEqual({});
    // Below the level first: the messages come in order, so were it sent it would come first.
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'read_file', arguments: { path: 'quiet.txt' } });
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
    await waitFor('the warning', () => logged.length > 0);
    expect(logged[0]).toEqual({
      level: 'warning',
      logger: 'mewbo',
      data: expect.stringMatching(/^read_file: .*missing\.txt/),
    });
  });

  it('each client gets its own session; a terminated session is gone (404) while the other serves on', async () => {
    const s = await serve(['--permission-mode', 'plan']);
    const one = await connect(s);
    const two = await connect(s);
    expect(one.transport.sessionId).toBeTruthy();
    expect(two.transport.sessionId).not.toBe(one.transport.sessionId);
    const gone = one.transport.sessionId!;
    await one.transport.terminateSession();
    const after = await httpRequest(s.port, {
      headers: { ...goodHeaders(s.port, s.token), 'mcp-session-id': gone },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    // plan mode reaches the HTTP sessions too: read-only tools only.
    const names = (await two.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('file_edit_tool');
  });

  it('a stream cut after its first event is resumed from Last-Event-ID: the call result is replayed', async () => {
    const s = await serve();
    const { client, transport } = await connect(s);
    const ids: string[] = [];
    await client.request(
      { method: 'tools/call', params: { name: 'read_file', arguments: { path: 'a.txt' } } },
      CallToolResultSchema,
      { onresumptiontoken: (id) => ids.push(id) },
    );
    // The first event of the call's stream is the priming event, sent before the result.
    expect(ids.length).toBe(2);
    const resumed = await sseRequest(
      s.port,
      {
        headers: {
          ...goodHeaders(s.port, s.token),
          accept: 'text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': transport.protocolVersion!,
          'last-event-id': ids[0]!,
        },
      },
      (t) => t.includes('total_lines'),
    );
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain(`id: ${ids[1]}`);
    expect(resumed.text).toContain('alpha');
  });

  it('--print-token prints the same token each time, from an owner-only file', async () => {
    fx = makeFixture();
    const a = await printToken(fx.home);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await printToken(fx.home)).toBe(a);
    expect(statSync(join(fx.home, 'configs', 'mcp-http.key')).mode & 0o777).toBe(0o600);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, makeFixture, type Fixture } from '../../unit/tools/harness';

// `mewbo mcp` driven by the MCP SDK's own client over a real stdio child process.

let fx: Fixture | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  fx?.cleanup();
});

async function connect(mode?: string): Promise<Client> {
  fx = makeFixture();
  writeFileSync(join(fx.root, 'a.txt'), 'alpha\nbeta\n');
  const args = [CLI, 'mcp', '--root', fx.root, ...(mode ? ['--permission-mode', mode] : [])];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...process.env, MEWBO_HOME: fx.home } as Record<string, string>,
    stderr: 'pipe',
  });
  client = new Client({ name: 'mewbo-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function payloadOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content[0]!.type).toBe('text');
  return JSON.parse(content[0]!.text) as Record<string, unknown>;
}

describe('mewbo mcp', () => {
  it('lists the file tools with JSON Schemas from their zod parameters', async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['read_file', 'aider_edit_block_tool', 'file_edit_tool', 'aider_list_dir_tool'])
      expect(names).toContain(n);
    const read = tools.find((t) => t.name === 'read_file')!;
    expect(read.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      properties: { offset: { type: 'integer', default: 0 }, limit: { default: 2000 } },
    });
    expect(read.annotations?.readOnlyHint).toBe(true);
  });

  it('read_file returns the same payload as JSON text', async () => {
    const c = await connect();
    const r = await c.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    expect(r.isError).toBe(false);
    expect(payloadOf(r)).toMatchObject({
      kind: 'file',
      content: '     1\talpha\n     2\tbeta',
      total_lines: 2,
    });
    // No dedup over MCP: the client's context is not ours to know.
    expect(
      payloadOf(await c.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })).kind,
    ).toBe('file');
  });

  it('an edit applies and returns the diff payload; error payloads come back with isError', async () => {
    const c = await connect();
    const r = await c.callTool({
      name: 'file_edit_tool',
      arguments: { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' },
    });
    expect(r.isError).toBe(false);
    expect(payloadOf(r)).toMatchObject({
      kind: 'diff',
      files: ['a.txt'],
      additions: 1,
      deletions: 1,
    });
    expect(readFileSync(join(fx!.root, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');
    const block = await c.callTool({
      name: 'aider_edit_block_tool',
      arguments: {
        content: 'a.txt\n```\n<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE\n```\n',
      },
    });
    expect(payloadOf(block)).toMatchObject({ kind: 'diff', files: ['a.txt'] });
    const outside = await c.callTool({ name: 'read_file', arguments: { path: '../outside/x' } });
    expect(outside.isError).toBe(true);
    expect(payloadOf(outside)).toMatchObject({ kind: 'error', code: 'path_validation' });
  });

  it('bad arguments are an error result naming the field, and the server keeps serving', async () => {
    const c = await connect();
    const r = await c.callTool({ name: 'read_file', arguments: { path: 'a.txt', limit: 'ten' } });
    expect(r.isError).toBe(true);
    expect(payloadOf(r)).toMatchObject({
      code: 'invalid_args',
      message: expect.stringMatching(/limit: /),
    });
    // An unknown tool is a protocol error (-32602, invalid params), as the spec says, not a result.
    const unknown = await c.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: /Unknown tool: 'nope'/,
    });
    expect((await c.callTool({ name: 'aider_list_dir_tool', arguments: {} })).isError).toBe(false);
  });

  it('plan mode lists only read-only tools', async () => {
    const c = await connect('plan');
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_file');
    expect(names).toContain('aider_list_dir_tool');
    expect(names).not.toContain('file_edit_tool');
    expect(names).not.toContain('aider_edit_block_tool');
  });

  it('ask mode refuses writes with a clear message, since nobody can approve them', async () => {
    const c = await connect('ask');
    const r = await c.callTool({
      name: 'file_edit_tool',
      arguments: { file_path: 'a.txt', old_string: 'beta', new_string: 'x' },
    });
    expect(r.isError).toBe(true);
    expect(payloadOf(r)).toMatchObject({
      code: 'permission_denied',
      message: expect.stringMatching(/nobody to approve/),
    });
    expect(readFileSync(join(fx!.root, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
    expect((await c.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })).isError).toBe(
      false,
    );
  });

  it('accept-edits mode allows edits', async () => {
    const c = await connect('accept-edits');
    const r = await c.callTool({
      name: 'file_edit_tool',
      arguments: { file_path: 'a.txt', old_string: 'beta', new_string: 'x' },
    });
    expect(r.isError).toBe(false);
  });
});

import { appendFileSync, closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, makeFixture, runCli, type Fixture } from '../../unit/tools/harness';

// Issue #26 part 1, through the surfaces a third party uses: `mewbo tool` (one fresh process a
// call, so every read is cold) and `mewbo mcp` with the SDK's client (one server keeps what it
// counted). The log is 96 MiB, more than the 64 MiB one call used to scan, so a window past that
// and the true numbers of its tail both need the deeper scan; it is written in 1 MiB blocks so
// the suite stays fast.

const LINE_BYTES = 64;
const BLOCK_LINES = (1 << 20) / LINE_BYTES;
const BLOCKS = 96;
const LINES = BLOCKS * BLOCK_LINES;

let fx: Fixture;
let client: Client;
const line = (i: number): string => `${`line ${i}`.padEnd(LINE_BYTES - 1, '.')}\n`;

beforeAll(async () => {
  fx = makeFixture();
  const fd = openSync(join(fx.root, 'big.log'), 'w');
  for (let b = 0; b < BLOCKS; b++) {
    let block = '';
    for (let i = 0; i < BLOCK_LINES; i++) block += line(b * BLOCK_LINES + i);
    writeSync(fd, block);
  }
  closeSync(fd);
  client = new Client({ name: 'mewbo-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', fx.root],
      env: { ...process.env, MEWBO_HOME: fx.home } as Record<string, string>,
      stderr: 'ignore',
    }),
  );
});
afterAll(async () => {
  await client?.close();
  fx?.cleanup();
});

async function read(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await client.callTool({ name: 'read_file', arguments: { path: 'big.log', ...args } });
  return JSON.parse((r.content as Array<{ text: string }>)[0]!.text) as Record<string, unknown>;
}

const numbered = (from: number, to: number): string[] =>
  Array.from(
    { length: to - from + 1 },
    (_, k) => `${String(from + k).padStart(6)}\t${line(from + k - 1).trimEnd()}`,
  );

describe('read_file at any depth', () => {
  it('one cold `mewbo tool` call returns a window 80 MiB into the file', () => {
    const offset = 80 * BLOCK_LINES + 7;
    const r = runCli(fx, 'read_file', { path: 'big.log', offset, limit: 3 });
    expect(r.payload).toMatchObject({ kind: 'file', start_line: offset + 1, end_line: offset + 3 });
    expect(String(r.payload!.content).split('\n').slice(0, 3)).toEqual(
      numbered(offset + 1, offset + 3),
    );
  });

  it('a tail read numbers its lines with their true numbers, counted through MCP', async () => {
    const p = await read({ offset: -2 });
    expect(p).toMatchObject({
      start_line: LINES - 1,
      end_line: LINES,
      total_lines: LINES,
      truncated: false,
    });
    expect(p.lines_from_end).toBeUndefined();
    expect(String(p.content).split('\n')).toEqual(numbered(LINES - 1, LINES));
  });

  it('after the file grew, the tail is numbered by counting only the appended bytes', async () => {
    await read({ offset: -1 });
    // A change inside the old bytes that keeps their first and last 4 KiB (one line made two)
    // and then an append: a rescan would count the extra line, a count carried on from the old
    // end does not. The append alone is what a log does; the edit only shows which one ran.
    const fd = openSync(join(fx.root, 'big.log'), 'r+');
    writeSync(fd, '\n', 40 * (1 << 20) + 10);
    closeSync(fd);
    appendFileSync(join(fx.root, 'big.log'), line(LINES));
    const p = await read({ offset: -2 });
    expect(p).toMatchObject({ start_line: LINES, end_line: LINES + 1, total_lines: LINES + 1 });
    expect(String(p.content).split('\n')[1]).toBe(
      `${String(LINES + 1).padStart(6)}\t${line(LINES).trimEnd()}`,
    );
  });

  it('a file rewritten in place (its head changed) is counted anew, not carried on', async () => {
    const path = join(fx.root, 'small.log');
    writeFileSync(path, 'a\nb\nc\n');
    expect(await read({ path: 'small.log', offset: -1 })).toMatchObject({ start_line: 3 });
    // Same inode, longer, but not by an append: the old count does not hold.
    writeFileSync(path, 'a\n\nb\n\nc\nd\n');
    expect(await read({ path: 'small.log', offset: -1 })).toMatchObject({
      start_line: 6,
      total_lines: 6,
      content: '     6\td',
    });
  });
});

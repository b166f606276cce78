import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import { applyDeferral } from '../../../electron/host/tool-search/deferral';
import { tempDir } from '../../helpers/temp';
import { FAST_LIMITS, byName, call, sessionRef } from './harness';

// Our MCP client against our own MCP server (`mewbo mcp`, built to dist/cli.js by the global
// setup): one app's built-in tools reached by another as namespaced, deferrable MCP tools.
const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
let tmp: { dir: string; cleanup: () => void };
let m: McpManager;

beforeAll(() => {
  tmp = tempDir('mewbo-interop-');
  const root = realpathSync(tmp.dir);
  mkdirSync(join(root, 'home'));
  writeFileSync(join(root, 'notes.txt'), 'first line\nsecond line\n');
  m = new McpManager({
    appServers: {
      mewbo: {
        command: process.execPath,
        args: [CLI, 'mcp', '--root', root],
        env: { MEWBO_HOME: join(root, 'home') },
        disabled: false,
      },
    },
    limits: FAST_LIMITS,
  });
});
afterAll(async () => {
  await m.dispose();
  tmp.cleanup();
});

describe('mewbo mcp as a server of the MCP client', () => {
  it('serves read_file as mcp__mewbo__read_file, found by tool_search and callable', async () => {
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['mcp__mewbo__read_file', 'mcp__mewbo__aider_list_dir_tool']),
    );
    const { bound } = applyDeferral({ tools, mode: 'on', threshold: 25, fetchedNames: [] });
    const found = await call(
      bound.find((t) => t.name === 'tool_search'),
      { query: 'read_file' },
    );
    expect((found.tools as { name: string }[])[0]!.name).toBe('mcp__mewbo__read_file');
    const out = await call(byName(tools, 'mcp__mewbo__read_file'), { path: 'notes.txt' });
    expect(out.kind).toBe('mcp_result');
    expect(out.text).toContain('second line');
  });
});

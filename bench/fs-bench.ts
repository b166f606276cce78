import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// Shared by the file-tool benches: a warm `mewbo mcp` to call the tools through, as an agent
// outside the app does.

const ROOT = process.cwd();
const CLI = join(ROOT, 'dist', 'cli.js');

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Whether `cmd` runs here (`cmd --version` exits 0). */
export function have(cmd: string): boolean {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface WarmMcp {
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts `mewbo mcp --root root` (building dist/cli.js first if missing) and connects to it. */
export async function warmMcp(root: string, home: string): Promise<WarmMcp> {
  if (!existsSync(CLI)) {
    const r = spawnSync(process.execPath, ['build/build.mjs', '--node-only'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('building dist/cli.js failed');
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root],
    env: { ...process.env, MEWBO_HOME: home } as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mewbo-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async (
    name: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const r = await client.callTool({ name, arguments: args });
    const content = r.content as Array<{ type: string; text: string }>;
    return JSON.parse(content[0]!.text) as Record<string, unknown>;
  };
  // A first call loads the tool's modules: the measured calls find the server warm.
  await call('read_file', { path: '.', limit: 1 }).catch(() => undefined);
  return { call, close: () => client.close() };
}

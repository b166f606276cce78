import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { ToolPayload } from '../../../shared/tools/payload';
import { findBuiltinTool } from '../../../electron/host/tools/builtin-tools';
import { parseToolArgs } from '../../../electron/host/tools/parse-args';
import { createStandaloneContext } from '../../../electron/host/tools/standalone-context';

// The shell tools driven two ways over the same scenarios: the host's tool API (a standalone
// tool context, as `mewbo tool` builds it) and `mewbo mcp` through the MCP SDK's client.

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const CLI = join(REPO_ROOT, 'dist/cli.js');

export interface Workspace {
  base: string;
  root: string;
  /** Another configured project, denied to the session's shells. */
  other: string;
  home: string;
  cleanup(): void;
}

export function workspace(config: Record<string, unknown> = {}): Workspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mewbo-shell-it-')));
  const root = join(base, 'project');
  const other = join(base, 'other');
  const home = join(base, 'home');
  for (const d of [root, other, join(home, 'configs')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(other, 'secret.txt'), 'OTHER-PROJECT-SECRET\n');
  const projects = { project: { path: root }, other: { path: other } };
  writeFileSync(join(home, 'configs', 'app.json'), JSON.stringify({ projects, ...config }));
  return { base, root, other, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface Driver {
  call(name: string, args: Record<string, unknown>): Promise<ToolPayload>;
  events: SessionEventBody[];
  close(): Promise<void>;
}

export async function apiDriver(ws: Workspace): Promise<Driver> {
  const events: SessionEventBody[] = [];
  const standalone = await createStandaloneContext({
    root: ws.root,
    env: { ...process.env, MEWBO_HOME: ws.home },
    onEvent: (e) => events.push(e),
  });
  return {
    events,
    async call(name, args) {
      const tool = findBuiltinTool(name)!;
      const parsed = parseToolArgs(tool, args);
      if (!parsed.ok) return parsed.error;
      return tool.run(standalone.ctx, parsed.args);
    },
    close: () => standalone.dispose(),
  };
}

export async function mcpDriver(ws: Workspace): Promise<Driver & { pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', ws.root],
    env: { ...process.env, MEWBO_HOME: ws.home } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mewbo-shell-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    events: [],
    pid: transport.pid!,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 60_000,
      });
      const content = result.content as Array<{ type: string; text: string }>;
      return JSON.parse(content[0]!.text) as ToolPayload;
    },
    close: () => client.close(),
  };
}

/** Processes whose command line matches `pattern` (pgrep -f), for survivor checks. */
export function survivors(pattern: string): string {
  try {
    return execFileSync('pgrep', ['-af', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolPayload } from '../../../shared/tools/payload';
import { parseConfig } from '../../../electron/host/config/load-config';
import { findBuiltinTool } from '../../../electron/host/tools/builtin-tools';
import { parseToolArgs } from '../../../electron/host/tools/parse-args';
import { ReadState } from '../../../electron/host/tools/read-state';
import type { ToolContext } from '../../../electron/host/tools/tool';

// Runs the file tools two ways, the host's tool API and the built `mewbo tool` CLI, over real
// files in fresh temp directories.

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const CLI = join(REPO_ROOT, 'dist/cli.js');

export interface Fixture {
  /** Project root (real path). */
  root: string;
  /** A directory beside the root that no tool may reach. */
  outside: string;
  /** An empty $MEWBO_HOME. */
  home: string;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mewbo-tools-')));
  const root = join(base, 'project');
  const outside = join(base, 'outside');
  const home = join(base, 'home');
  for (const d of [root, outside, home]) mkdirSync(d);
  return { root, outside, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function apiContext(root: string, readState = new ReadState()): ToolContext {
  return {
    root,
    sessionId: 's_testsession',
    agentId: 'root',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services: { readState },
    emit: async () => undefined,
  };
}

/** The tool API: args validated by the tool's schema, then run (an invalid call is an invalid_args payload). */
export async function runApi(
  root: string,
  name: string,
  args: unknown,
  ctx = apiContext(root),
): Promise<ToolPayload> {
  const tool = findBuiltinTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed = parseToolArgs(tool, args);
  if (!parsed.ok) return parsed.error;
  return tool.run(ctx, parsed.args);
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  payload: ToolPayload | null;
}

/** `mewbo tool NAME --root ROOT --args -` with the JSON on stdin (no argv size limit). */
export function runCli(
  fx: Pick<Fixture, 'root' | 'home'>,
  name: string,
  args: unknown,
  extra: string[] = [],
): CliRun {
  const r = spawnSync(
    process.execPath,
    [CLI, 'tool', name, '--root', fx.root, '--args', '-', ...extra],
    {
      input: typeof args === 'string' ? args : JSON.stringify(args),
      env: { ...process.env, MEWBO_HOME: fx.home },
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  let payload: ToolPayload | null;
  try {
    payload = JSON.parse(r.stdout) as ToolPayload;
  } catch {
    payload = null;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, payload };
}

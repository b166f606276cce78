import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { AppConfig } from '../../../electron/host/config/schema';
import { LspService } from '../../../electron/host/lsp/lsp-service';
import { lspTool } from '../../../electron/host/tools/lsp';
import type { ToolContext } from '../../../electron/host/tools/tool';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { tempDir } from '../../helpers/temp';

// Shared by the LSP tests: temp projects written from a map, a ToolContext around one service.

export function writeProject(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

export function configWith(agent: Record<string, unknown> = {}): AppConfig {
  return parseConfig({ agent });
}

export function toolContext(
  root: string,
  lsp: LspService,
  config: AppConfig = configWith(),
): ToolContext {
  const events: SessionEventBody[] = [];
  return {
    root,
    sessionId: 'test',
    agentId: 'root',
    signal: new AbortController().signal,
    config,
    services: { lsp },
    async emit(event) {
      events.push(event);
    },
  };
}

/**
 * A temp project of `files` with one LspService (default config, passive diagnostics waited for
 * up to 30 s) for the describe block it is called in, disposed after it; `call` runs lsp_tool.
 */
export function lspProject(prefix: string, files: Record<string, string>) {
  const temp = tempDir(prefix);
  const root = temp.dir;
  writeProject(root, files);
  const lsp = new LspService({ config: () => configWith(), waits: { passiveMs: 30_000 } });
  const ctx = toolContext(root, lsp);
  const call = (args: Record<string, unknown>) => lspTool.run(ctx, lspTool.parameters.parse(args));
  afterAll(async () => {
    await lsp.dispose();
    temp.cleanup();
  });
  return { root, lsp, ctx, call };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone (a killed process is reaped asynchronously). */
export async function waitGone(pid: number, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

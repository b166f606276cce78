import { DisposableStore, toDisposable } from '../../../electron/host/lifecycle/disposable';
import { Emitter } from '../../../electron/host/lifecycle/emitter';
import type { McpTrust } from '../../../electron/host/mcp/mcp-manager';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { AnyTool, ToolContext } from '../../../electron/host/tools/tool';
import { DEFAULT_MCP_LIMITS, type McpLimits } from '../../../electron/host/mcp/constants';

/** Backoff short enough for a test to watch a crash loop end, everything else as shipped. */
export const FAST_LIMITS: McpLimits = {
  ...DEFAULT_MCP_LIMITS,
  restartBaseMs: 20,
  restartMaxDelayMs: 100,
  restartWaitMs: 5_000,
  connectTimeoutMs: 15_000,
};

export function toolContext(root = '/'): ToolContext {
  return {
    root,
    sessionId: 's_test000',
    agentId: 'root',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services: {},
    emit: async () => {},
  };
}

export function sessionRef(id = `s_${Math.random().toString(36).slice(2, 10)}`) {
  return { id, resources: new DisposableStore() };
}

export async function call(
  tool: AnyTool | undefined,
  args: Record<string, unknown> = {},
  root = '/',
) {
  if (!tool) throw new Error('tool not found');
  return (await tool.run(toolContext(root), args)) as Record<string, unknown> & { kind: string };
}

export function byName(tools: AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name);
}

/** Polls until `check` returns a value (bounded: the test fails with `what` instead of hanging). */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Workspace trust for tests: every project trusted, or a switchable set of trusted roots. */
export const TRUST_ALL: McpTrust = {
  isTrusted: () => true,
  trustsContent: async () => true,
  onDidChange: () => toDisposable(() => {}),
};

export function switchableTrust(): McpTrust & { set(root: string, trusted: boolean): void } {
  const roots = new Set<string>();
  const changed = new Emitter<void>();
  return {
    isTrusted: (root) => roots.has(root),
    trustsContent: async (root) => roots.has(root),
    onDidChange: changed.event,
    set(root, trusted) {
      if (trusted) roots.add(root);
      else roots.delete(root);
      changed.fire();
    },
  };
}

import type { AppConfig } from '../config/schema';
import type { DisposableStore } from '../lifecycle/disposable';
import { LauncherSandbox } from '../lsp/sandboxed-launch';
import { moduleDir } from '../lsp/resolve-command';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import { McpManager, type McpTrust } from './mcp-manager';

// The McpManager as the composition root builds it: the app's servers from configs/app.json and,
// with agent.server_sandbox on, stdio servers started only under the Landlock launcher. Both
// are registered with `store`.

export interface CreateMcpOptions {
  config: AppConfig;
  /** Workspace trust: only trusted projects' `.mcp.json` servers start. */
  trust: McpTrust;
  /** $MEWBO_HOME/configs (denied to a confined server with harness_self_deny). */
  configDir: string;
  /** Stands in as the root of app servers, which belong to no project: they reach none. */
  noProjectRoot: string;
  store: DisposableStore;
}

export function createMcpManager(opts: CreateMcpOptions): McpManager {
  let sandbox: LauncherSandbox | undefined;
  if (opts.config.agent.server_sandbox) {
    const installRoot = findInstallRoot(moduleDir());
    sandbox = opts.store.add(
      new LauncherSandbox({
        launcher: findLauncher(installRoot),
        installRoot,
        configDir: opts.configDir,
        config: () => opts.config,
      }),
    );
  }
  const wrap = sandbox?.wrap;
  return opts.store.add(
    new McpManager({
      appServers: opts.config.mcpServers,
      trust: opts.trust,
      sandbox: wrap ? (root, argv) => wrap(root ?? opts.noProjectRoot, argv) : undefined,
    }),
  );
}

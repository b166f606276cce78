import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/schema';
import { toDisposable } from '../lifecycle/disposable';
import type { DisposableStore } from '../lifecycle/disposable';
import { LauncherSandbox } from '../lsp/sandboxed-launch';
import { moduleDir } from '../lsp/resolve-command';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import type { ServerNetworks } from '../network/server-networks';
import { McpManager, type McpTrust } from './mcp-manager';
import type { SecretStore } from '../secrets/secret-store';
import type { SignInPolicy } from './sign-in-policy';

// The McpManager as the composition root builds it: the app's servers from configs/app.json and,
// with agent.server_sandbox on, stdio servers started only under the Landlock launcher, each
// reaching the network through its own egress proxy. Both are registered with `store`.

export interface CreateMcpOptions {
  config: AppConfig;
  /** Workspace trust: only trusted projects' `.mcp.json` servers start. */
  trust: McpTrust;
  /** $MEWBO_HOME: denied whole to confined shells and servers. */
  homeDir: string;
  store: DisposableStore;
  /** Where HTTP servers' sign-ins are kept (the user's secret store). */
  secrets: SecretStore;
  signIn: SignInPolicy;
  /** Confined servers' egress proxies; without it their network is open. */
  networks?: ServerNetworks;
}

export function createMcpManager(opts: CreateMcpOptions): McpManager {
  let sandbox: LauncherSandbox | undefined;
  // App servers belong to no project, so they reach none: an empty directory of their own
  // stands in as their root (never one under $MEWBO_HOME, which they may not reach either).
  let noProjectRoot = '';
  if (opts.config.agent.server_sandbox) {
    const dir = mkdtempSync(join(tmpdir(), 'mewbo-app-servers-'));
    noProjectRoot = dir;
    opts.store.add(toDisposable(() => rmSync(dir, { recursive: true, force: true })));
    const installRoot = findInstallRoot(moduleDir());
    sandbox = opts.store.add(
      new LauncherSandbox({
        launcher: findLauncher(installRoot),
        installRoot,
        homeDir: opts.homeDir,
        config: () => opts.config,
        ...(opts.networks ? { network: opts.networks.forServer.bind(opts.networks) } : {}),
      }),
    );
  }
  const wrap = sandbox?.wrap;
  return opts.store.add(
    new McpManager({
      appServers: opts.config.mcpServers,
      trust: opts.trust,
      sandbox: wrap ? (root, argv, server) => wrap(root ?? noProjectRoot, argv, server) : undefined,
      secrets: opts.secrets,
      signIn: opts.signIn,
    }),
  );
}

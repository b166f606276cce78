import type { AppConfig } from '../config/schema';
import type { DisposableStore } from '../lifecycle/disposable';
import type { ServerNetworks } from '../network/server-networks';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import { LspService } from './lsp-service';
import { moduleDir } from './resolve-command';
import { LauncherSandbox } from './sandboxed-launch';

// The LspService as a composition root builds it: this app's bundled servers on the search path
// and the Landlock launcher for agent.server_sandbox. Both are registered with `store`.

export interface CreateLspOptions {
  config: () => AppConfig;
  /** $MEWBO_HOME: denied whole to confined shells and servers. */
  homeDir: string;
  store: DisposableStore;
  env?: NodeJS.ProcessEnv;
  /** Workspace trust (trust/workspace-trust.ts). */
  isTrusted?: (projectRoot: string) => boolean;
  /** Confined servers' egress proxies; without it their network is open. */
  networks?: ServerNetworks;
}

export function createLspService(opts: CreateLspOptions): LspService {
  const installRoot = findInstallRoot(moduleDir());
  const sandbox = opts.store.add(
    new LauncherSandbox({
      launcher: findLauncher(installRoot),
      installRoot,
      homeDir: opts.homeDir,
      config: opts.config,
      ...(opts.networks ? { network: opts.networks.forServer.bind(opts.networks) } : {}),
    }),
  );
  return opts.store.add(
    new LspService({
      config: opts.config,
      env: opts.env,
      sandbox: (root, argv) => sandbox.wrap(root, argv),
      isTrusted: opts.isTrusted,
    }),
  );
}

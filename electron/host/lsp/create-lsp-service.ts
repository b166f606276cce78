import type { AppConfig } from '../config/schema';
import type { DisposableStore } from '../lifecycle/disposable';
import type { ServerNetworks } from '../network/server-networks';
import { LspService } from './lsp-service';
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
  const sandbox = opts.store.add(
    LauncherSandbox.forApp({ homeDir: opts.homeDir, config: opts.config, networks: opts.networks }),
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

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/schema';
import { toDisposable } from '../lifecycle/disposable';
import type { DisposableStore } from '../lifecycle/disposable';
import { LauncherSandbox } from '../lsp/sandboxed-launch';
import type { ServerNetworks } from '../network/server-networks';
import { McpManager, type McpTrust } from './mcp-manager';
import type { SecretStore } from '../secrets/secret-store';
import type { SignInPolicy } from './sign-in-policy';
import type { McpServerSandbox } from './server-sandbox';
import type { RemoteServerLaunch } from '../remote/remote-server-launch';

// The McpManager as the composition root builds it: the app's servers from configs/app.json and
// the projects' `.mcp.json` servers. A project's stdio server is the repository's code: it starts
// only under the Landlock launcher (the shells' deny list, so nothing of $MEWBO_HOME and no other
// project; writes only where a shell may), whatever agent.server_sandbox says. The user's own
// servers start confined only with agent.server_sandbox on (one the user wants unconfined is
// theirs to move into configs/app.json). A confined server reaches the network only through an
// egress proxy of its own (its `network` allowlist). Everything made is registered with `store`.

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
  /** A remote project's server starts on its host (remote/remote-server-launch.ts). */
  remoteLaunch?: RemoteServerLaunch;
  /** Why a remote project's HTTP server is not connected from here (remote-server-launch.ts). */
  projectHttpRefusal?: (root: string) => string | null;
}

export function createMcpManager(opts: CreateMcpOptions): McpManager {
  const sandbox = opts.store.add(
    LauncherSandbox.forApp({
      homeDir: opts.homeDir,
      config: () => opts.config,
      networks: opts.networks,
    }),
  );
  // App servers belong to no project, so they reach none: an empty directory of their own
  // stands in as their root (never one under $MEWBO_HOME, which they may not reach either).
  let appWrap: McpServerSandbox | undefined;
  if (opts.config.agent.server_sandbox) {
    const dir = mkdtempSync(join(tmpdir(), 'mewbo-app-servers-'));
    opts.store.add(toDisposable(() => rmSync(dir, { recursive: true, force: true })));
    appWrap = (_root, argv, server) => sandbox.wrap(dir, argv, server);
  }
  return opts.store.add(
    new McpManager({
      appServers: opts.config.mcpServers,
      trust: opts.trust,
      sandbox: async (root, argv, server) => {
        const remote =
          root !== null && 'projectServer' in server
            ? await opts.remoteLaunch?.(root, server.projectServer)
            : null;
        if (remote) return remote;
        if (root !== null) return sandbox.wrap(root, argv, server);
        return appWrap ? appWrap(null, argv, server) : { argv };
      },
      secrets: opts.secrets,
      signIn: opts.signIn,
      projectHttpRefusal: opts.projectHttpRefusal,
    }),
  );
}

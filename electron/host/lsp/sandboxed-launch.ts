import { tmpdir } from 'node:os';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import { errorPayload } from '../../../shared/tools/payload';
import type { ServerNetworks, ServerNetworkSpec } from '../network/server-networks';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import { moduleDir } from './resolve-command';
import { launchOverStdin, Sandbox } from '../sandbox/sandbox';
import type { SpawnNetwork } from '../shells/shell-network';
import type { ServerSandbox } from './server-registry';

// `agent.server_sandbox`: a language server starts under the same Landlock launcher as the shells,
// with the same deny list (other projects, all of $MEWBO_HOME, agent.shell_denied_paths).
// The launcher also supervises the server's tree and ends it if the host dies. Servers bundled in
// the app's own install are denied with it (harness_self_deny) unless the project re-admits them
// through allowed_paths; servers on PATH or in the project's node_modules need nothing. Given a
// network, a server reaches only its own egress proxy, like a shell (network/server-networks.ts).

/** Where a language server's allowlist would be: they have none (no key; never asked either). */
const LSP_SETTING = 'the allowlist of a language server (there is none)';

export interface LauncherSandboxOptions {
  /** The compiled launcher, or null when it was not built. */
  launcher: string | null;
  installRoot: string | null;
  /** $MEWBO_HOME: denied whole to confined shells and servers. */
  homeDir: string;
  config: () => AppConfig;
  /**
   * The network a server gets, asked at each start: its egress proxy's grant and environment
   * (network/server-networks.ts); without this option, or undefined, its network is open.
   */
  network?: (server: ServerNetworkSpec, root: string) => Promise<SpawnNetwork | undefined>;
}

export class LauncherSandbox implements Disposable {
  private sandbox: Sandbox | undefined;

  constructor(private readonly opts: LauncherSandboxOptions) {}

  /** The app's launcher (as built for this install), each server's network through `networks`. */
  static forApp(opts: {
    homeDir: string;
    config: () => AppConfig;
    networks?: ServerNetworks;
  }): LauncherSandbox {
    const installRoot = findInstallRoot(moduleDir());
    return new LauncherSandbox({
      launcher: findLauncher(installRoot),
      installRoot,
      homeDir: opts.homeDir,
      config: opts.config,
      ...(opts.networks ? { network: opts.networks.forServer.bind(opts.networks) } : {}),
    });
  }

  /** The hook for LspServiceOptions.sandbox. */
  readonly wrap = async (
    projectRoot: string,
    argv: string[],
    /** Which server, for its network: a language server by its command, with no allowlist. */
    server: ServerNetworkSpec = { key: `lsp:${argv.join(' ')}`, setting: LSP_SETTING, allow: [] },
  ): ReturnType<ServerSandbox> => {
    const launcher = this.opts.launcher;
    if (!launcher) {
      return {
        refused: errorPayload(
          'sandbox_unavailable',
          "the sandbox launcher is not built (run `npm run build`, which needs gcc); a server that must run confined (a project's MCP server, or any with agent.server_sandbox on) is not started unconfined",
        ),
      };
    }
    // The shell switch does not govern servers: server_sandbox already asked for confinement.
    const base = this.opts.config();
    const config = { ...base, agent: { ...base.agent, shell_sandbox: true } };
    const network = await this.opts.network?.(server, projectRoot);
    const prepared = await this.get().prepare({
      config,
      root: projectRoot,
      tempDirs: [tmpdir()],
      network: network?.grant,
    });
    if ('refused' in prepared) return prepared;
    // Not --merge-stderr: stdout carries the protocol and must stay apart from the server's logs.
    return {
      ...launchOverStdin(launcher, prepared.rules, argv),
      ...(network ? { env: network.env } : {}),
    };
  };

  /** One Sandbox, made on first use (most hosts never need it). */
  private get(): Sandbox {
    this.sandbox ??= new Sandbox({
      launcher: this.opts.launcher,
      installRoot: this.opts.installRoot,
      homeDir: this.opts.homeDir,
    });
    return this.sandbox;
  }

  dispose(): void {
    // nothing on disk: the rules travel over the server's stdin
  }
}

import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import type { SpawnNetwork } from '../shells/shell-network';
import { addressClassifier, type AddressKind } from './address-kind';
import { hostKey, type Host } from './host-name';
import { configAllowList, configProjectKey } from './config-allowlist';
import { allowEntries } from './network-policy';
import { systemResolver, type Resolver } from './resolver';
import { SessionNetwork } from './session-network';

// The network of the servers the app starts confined (`agent.server_sandbox`: stdio MCP servers
// and language servers): like a session's shells, each server reaches only its own egress proxy
// (Landlock's TCP rule, the seccomp filter against UDP and raw sockets), never a direct socket;
// the proxy lets through only the destinations that server's own allowlist names
// (`mcpServers.NAME.network`; language servers have none), or for a project's `.mcp.json` server
// what configs/app.json lets the project reach (never the file's own `network`), nobody is asked (a server runs for
// every session, and no session's user is there to answer for it), loopback only to ports the
// user lists in sandbox.network.local_ports, never the app's own. One proxy per server, so the
// port a connection arrives on says which server's list applies.

/** Which server, and where its allowlist comes from. */
export type ServerNetworkSpec = {
  /** One per server identity (specKey for MCP servers): its proxy is reused across restarts. */
  key: string;
} & (
  | {
      /** Where the user set its list, for the refusal the server reads: `mcpServers.NAME.network`. */
      setting: string;
      allow: readonly string[];
    }
  | {
      /**
       * A project's `.mcp.json` server, by name. A project cannot grant itself network: its list is
       * what configs/app.json gives the project's confined processes, never a `network` of its own.
       */
      projectServer: string;
    }
);

export interface ServerNetworksOptions {
  config: () => AppConfig;
  /** Tests resolve their own names; production asks the system. */
  resolver?: Resolver;
  /** Tests may stand a loopback server in for the internet; production classifies by range. */
  addressKind?: (address: string) => AddressKind;
}

/** Why a project's server may not reach `host`, and where the user lists it. */
function projectServerUnlisted(name: string, host: Host, root: string, config: AppConfig): string {
  const dest = hostKey(host);
  const key = configProjectKey(config, root);
  const where =
    key === undefined
      ? `to "network_allow" of an entry for this project under "projects" in configs/app.json ({"path": ${JSON.stringify(root)}, "network_allow": ["${dest}"]})`
      : `to projects.${key}.network_allow in configs/app.json`;
  return `${dest} is not allowed for ${name}, a server of this project's .mcp.json, and a server's connections are never asked. A project cannot grant itself network: a "network" list in .mcp.json is not read. To allow it, add "${dest}" ${where} (or to sandbox.network.allow there, for everything you run confined).`;
}

export class ServerNetworks implements Disposable {
  private readonly networks = new Map<string, SessionNetwork>();
  private readonly addressKind: (address: string) => AddressKind;

  constructor(private readonly opts: ServerNetworksOptions) {
    this.addressKind = opts.addressKind ?? addressClassifier();
  }

  /** What a server started now for `root` gets (undefined: sandbox.network.confine is off). */
  async forServer(server: ServerNetworkSpec, root: string): Promise<SpawnNetwork | undefined> {
    let network = this.networks.get(server.key);
    if (!network) {
      network = this.make(server);
      this.networks.set(server.key, network);
    }
    const spawned = await network.forSpawn(root);
    return spawned && { grant: spawned.grant, env: spawned.env };
  }

  private make(server: ServerNetworkSpec): SessionNetwork {
    const facts =
      'projectServer' in server
        ? (root: string) => ({
            allowList: configAllowList(this.opts.config(), root),
            unlisted: (host: Host) =>
              projectServerUnlisted(server.projectServer, host, root, this.opts.config()),
          })
        : this.ownList(server);
    return new SessionNetwork({
      // No process carries this token: a server's own listeners are not a session's dev server.
      processes: { tokenPrefix: `server-${randomBytes(8).toString('hex')}.`, running: () => false },
      facts: async (root) => ({ rules: [], mode: 'auto', canAsk: false, ...facts(root) }),
      confine: () => this.opts.config().sandbox.network.confine,
      localPorts: () => this.opts.config().sandbox.network.local_ports,
      refused: () => {},
      resolver: this.opts.resolver ?? systemResolver,
      addressKind: this.addressKind,
    });
  }

  /** A server with a list of its own (the user's server, a language server). */
  private ownList(server: { setting: string; allow: readonly string[] }) {
    const allowList = allowEntries(server.allow, `${server.setting} (configs/app.json)`);
    const unlisted = (host: Host) =>
      `${hostKey(host)} is not in ${server.setting}, and a server's connections are never asked. To allow it, add "${hostKey(host)}" to ${server.setting} in configs/app.json.`;
    return () => ({ allowList, unlisted });
  }

  async dispose(): Promise<void> {
    const all = [...this.networks.values()];
    this.networks.clear();
    await Promise.all(all.map((n) => n.dispose()));
  }
}

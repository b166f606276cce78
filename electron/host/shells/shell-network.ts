import type { Disposable } from '../lifecycle/disposable';
import type { NetworkGrant } from '../sandbox/sandbox';

// What the shells need of the network: per session, the grant and the environment each spawn
// gets (network/network-service.ts provides them: the session's egress proxy), and the grant the
// status without a session stands for (Settings). The launcher enforces the grant; the
// environment points the command's tools at the proxy. Kept to this interface so a test can give
// a fixed grant (the launcher's own tests) without a proxy.

export interface SpawnNetwork {
  /** The local ports the command may connect to, and what to add to its environment. */
  grant: NetworkGrant;
  env: Record<string, string>;
}

export interface SessionShellNetwork extends Disposable {
  /** What a command spawned now for `root` gets; undefined leaves its network open. */
  forSpawn(root: string): Promise<SpawnNetwork | undefined>;
}

/** How a session's network knows the session's processes (its ShellManager). */
export interface SessionProcesses {
  /** MEWBO_SHELL_TOKEN prefix of every process the session started (ShellManager.tokenPrefix). */
  tokenPrefix: string;
  /**
   * Whether one of the session's shells is running. Without one, a spawn is granted no listener
   * of the session's directly, and the host skips the scans of /proc that would find them (the
   * cost of a shell's start-up, issue 25): the launcher kills a command's whole tree when it
   * ends, so a listener of the session's needs a running shell. A process that outlived its
   * launcher (killed from outside) is still reached through the proxy, which looks per connection.
   */
  running(): boolean;
}

export interface ShellNetwork {
  /**
   * A session's network. `refused` tells the shell whose connection was refused (null: it could
   * not be told which).
   */
  forSession(
    sessionId: string,
    processes: SessionProcesses,
    refused: (shellId: string | null, reason: string) => void,
  ): SessionShellNetwork;
  /** The grant a spawn would get, for the status shown without a session (undefined: open). */
  statusGrant(): NetworkGrant | undefined;
}

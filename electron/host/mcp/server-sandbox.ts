import type { ServerNetworkSpec } from '../network/server-networks';

// `agent.server_sandbox` for stdio MCP servers: the host passes a hook that wraps a server's argv
// in the Landlock launcher with the shells' deny list (lsp/sandboxed-launch.ts LauncherSandbox.wrap
// fits). The launcher's rules come as `stdinPrefix`, written to the server's stdin before
// anything else (the launcher reads exactly that much, then execs the server). A project's server is scoped to its project; an app server belongs to no project, so it
// gets the scope of a session bound to none (it reaches no configured project). HTTP servers are
// not processes of ours and are not confined. A confined server's network goes through an egress
// proxy of its own, which lets through the destinations its `network` list names and no other (a
// project's server: what configs/app.json lets its project reach; a project grants itself none).

export type McpServerSandbox = (
  /** The project a `.mcp.json` server belongs to; null for an app server. */
  root: string | null,
  argv: string[],
  /** Which server, for its egress proxy: its identity and where its allowlist comes from. */
  server: ServerNetworkSpec,
) => Promise<McpLaunch | { refused: { message: string } }>;

/** How a confined server is started: the launcher's argv, its rules, its proxy's variables. */
export interface McpLaunch {
  argv: string[];
  stdinPrefix?: Buffer;
  env?: Record<string, string>;
  /**
   * The server runs on an SSH host (a remote project's, remote/remote-server-launch.ts) and `argv`
   * is only the ssh channel to it here: `root` is the project's folder there, which roots/list
   * names; the channel gets none of the config's `env` or `cwd` (the host applies them to the
   * server), so a project's file sets nothing in a process on this computer.
   */
  remote?: { root: string };
}

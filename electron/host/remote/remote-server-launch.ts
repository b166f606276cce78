import { createHash } from 'node:crypto';
import { PROJECT_MCP_FILE, readProjectMcpConfig } from '../mcp/project-config';
import type { McpTrust } from '../mcp/mcp-manager';
import type { McpLaunch } from '../mcp/server-sandbox';
import type { RemoteHost } from './remote-host';
import { remoteProjectUrl } from './remote-project-mirror';
import { parseSshUrl } from './ssh-url';

// Where a project's `.mcp.json` server starts when the project is on an SSH host (issue #29 part
// 3): the MCP manager reads and admits the app's copy of the file (remote-project-mirror.ts) as
// it does a local one, and instead of the local launcher it gets an ssh command that runs the
// server on the host (remote-mcp-server.ts), with the SHA-256 of the text trust admitted, checked
// there against the host's file before anything starts.

export interface RemoteServerLaunchOptions {
  /** Where the copies of remote projects live ($MEWBO_HOME/state/remote-projects). */
  policyDir: string;
  trust: McpTrust;
  hostFor(url: string): Promise<RemoteHost>;
}

/**
 * The launch of server `name` of the project whose root (as the manager knows it) is `root`: null
 * when `root` is not a remote project's copy (the local launcher applies).
 */
export type RemoteServerLaunch = (
  root: string,
  name: string,
) => Promise<McpLaunch | { refused: { message: string } } | null>;

export function remoteServerLaunch(opts: RemoteServerLaunchOptions): RemoteServerLaunch {
  return async (root, name) => {
    const url = remoteProjectUrl(opts.policyDir, root);
    if (!url) return null;
    const { text } = await readProjectMcpConfig(root);
    // Asked again at each start: what the manager admitted may have changed on the host since.
    if (text === undefined || !(await opts.trust.trustsContent(root, PROJECT_MCP_FILE, text)))
      return {
        refused: {
          message: `${url}/${PROJECT_MCP_FILE} is not the one trusted: trust the project again`,
        },
      };
    const sha256 = createHash('sha256').update(text).digest('hex');
    const host = await opts.hostFor(url);
    const path = parseSshUrl(url).path;
    return { argv: host.projectServerArgv(path, name, sha256), remote: { root: path } };
  };
}

/**
 * Why an HTTP server in a remote project's `.mcp.json` is not connected: its address is one the
 * host sees (its `localhost`, its network), and connected from here it would reach this
 * computer's instead: a cloned repository could point the app at a service of the desktop's own.
 * Null for a local project's copy.
 */
export function remoteHttpRefusal(policyDir: string): (root: string) => string | null {
  return (root) => {
    const url = remoteProjectUrl(policyDir, root);
    if (!url) return null;
    return `an HTTP server of a project on an SSH host (${url}) is not connected from this computer, which would reach its own addresses instead of the host's: run it as a stdio server in ${PROJECT_MCP_FILE}, or add it to configs/app.json mcpServers if this computer should reach it`;
  };
}

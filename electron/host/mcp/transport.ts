import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Writable } from 'node:stream';
import { withProxyEnv } from '../network/proxy-env';
import type { McpLaunch } from './server-sandbox';
import type { McpServerSpec } from './server-spec';
import { StderrTail } from './stderr-tail';

export interface OpenedTransport {
  transport: Transport;
  /** The child's pid once started (stdio only). */
  pid(): number | null;
}

/** An HTTP server's OAuth as its transport takes it (oauth/server-auth.ts). */
export interface HttpAuth {
  /** Absent until there is a sign-in: a 401 then plainly means "needs sign-in". */
  authProvider?: OAuthClientProvider;
  /** Every request of the connection goes through it (it notes the server's challenges). */
  fetch: FetchLike;
}

/**
 * A fresh transport for one connection attempt (a transport cannot be restarted). Stdio servers
 * get the SDK's safe default environment plus their configured `env`, and run in their project's
 * root unless `cwd` says otherwise (a server on an SSH host: see McpLaunch.remote). HTTP servers use the SDK's Streamable HTTP transport, which
 * follows redirects only within the server's origin, so its token never leaves for another host.
 */
export function openTransport(
  spec: McpServerSpec,
  stderr: StderrTail,
  launch?: McpLaunch,
  http?: HttpAuth,
): OpenedTransport {
  const config = spec.config;
  if ('url' in config) {
    const transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
      ...(http?.authProvider ? { authProvider: http.authProvider } : {}),
      ...(http ? { fetch: http.fetch } : {}),
    });
    return { transport, pid: () => null };
  }
  // `launch` (from the sandbox) replaces command and args: the launcher runs the server.
  const [command, ...args] = launch?.argv ?? [config.command, ...config.args];
  const Transport = launch?.stdinPrefix
    ? prefixedTransport(launch.stdinPrefix)
    : StdioClientTransport;
  // A server on an SSH host gets its `env` and `cwd` there: the ssh channel here gets neither.
  const local: { env?: Record<string, string>; cwd?: string } = launch?.remote ? {} : config;
  const transport = new Transport({
    command: command!,
    args,
    env: withProxyEnv({ ...getDefaultEnvironment(), ...local.env }, launch?.env),
    cwd: local.cwd ?? spec.root ?? undefined,
    stderr: 'pipe',
  });
  stderr.attach(transport.stderr as import('node:stream').Readable | null);
  return { transport, pid: () => transport.pid };
}

/**
 * A stdio transport that writes `prefix` to the child's stdin as soon as it is spawned, before the
 * client's first message (Client.connect awaits start() before sending initialize).
 */
function prefixedTransport(prefix: Buffer): typeof StdioClientTransport {
  return class extends StdioClientTransport {
    override async start(): Promise<void> {
      await super.start();
      const stdin = (this as unknown as { _process?: { stdin?: Writable | null } })._process?.stdin;
      if (!stdin) throw new Error('the MCP transport exposes no stdin for the sandbox rules');
      stdin.write(prefix);
    }
  };
}

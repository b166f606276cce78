import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Writable } from 'node:stream';
import type { McpServerSpec } from './server-spec';
import { StderrTail } from './stderr-tail';

export interface OpenedTransport {
  transport: Transport;
  /** The child's pid once started (stdio only). */
  pid(): number | null;
}

/**
 * A fresh transport for one connection attempt (a transport cannot be restarted). Stdio servers
 * get the SDK's safe default environment plus their configured `env`, and run in their project's
 * root unless `cwd` says otherwise.
 */
export function openTransport(
  spec: McpServerSpec,
  stderr: StderrTail,
  launch?: { argv: readonly string[]; stdinPrefix?: Buffer },
): OpenedTransport {
  const config = spec.config;
  if ('url' in config) {
    const transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
    });
    return { transport, pid: () => null };
  }
  // `launch` (from the sandbox) replaces command and args: the launcher runs the server.
  const [command, ...args] = launch?.argv ?? [config.command, ...config.args];
  const Transport = launch?.stdinPrefix
    ? prefixedTransport(launch.stdinPrefix)
    : StdioClientTransport;
  const transport = new Transport({
    command: command!,
    args,
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd ?? spec.root ?? undefined,
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

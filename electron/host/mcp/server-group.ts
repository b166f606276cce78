import type { Disposable } from '../lifecycle/disposable';
import type { McpServerStatus } from '../../../shared/protocol/commands/mcp';
import type { AnyTool } from '../tools/tool';
import { McpConnection, type McpConnectionOptions } from './mcp-connection';
import { adaptTools } from './tool-adapter';
import type { McpServerSpec } from './server-spec';

/** The servers of one scope (the app's, or one project's) with the config errors found reading them. */
export class ServerGroup implements Disposable {
  readonly connections: McpConnection[];
  private started: Promise<void> | null = null;

  constructor(
    specs: readonly McpServerSpec[],
    readonly configErrors: readonly McpServerStatus[],
    onChange: () => void,
    options: McpConnectionOptions,
  ) {
    this.connections = specs.map((s) => new McpConnection(s, options));
    for (const c of this.connections) c.onDidChange(onChange);
  }

  /** Starts every server at once; resolves when each has settled. One failing never stops the rest. */
  start(): Promise<void> {
    this.started ??= Promise.allSettled(this.connections.map((c) => c.start())).then(
      () => undefined,
    );
    return this.started;
  }

  tools(): AnyTool[] {
    return this.connections.flatMap(adaptTools);
  }

  statuses(): McpServerStatus[] {
    return [...this.connections.map((c) => c.status()), ...this.configErrors];
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.connections.map((c) => c.dispose()));
  }
}

/** A status row for a server whose config could not be used (bad `.mcp.json` entry, name clash). */
export function configErrorStatus(
  spec: Pick<McpServerSpec, 'name' | 'scope' | 'root'>,
  error: string,
): McpServerStatus {
  return {
    id: spec.scope === 'app' ? `app:${spec.name}` : `project:${spec.root}:${spec.name}`,
    name: spec.name,
    scope: spec.scope,
    root: spec.root,
    transport: 'stdio',
    state: 'failed',
    error,
    tools: [],
    restarts: 0,
    pid: null,
    stderr_tail: [],
    log_tail: [],
    resources: [],
    prompts: [],
    sign_in: null,
  };
}

/**
 * A project server that waits for workspace trust: listed with what it would run, never started.
 * The error names the rule so Settings and the trust prompt can say why.
 */
export function untrustedStatus(
  spec: Pick<McpServerSpec, 'name' | 'scope' | 'root'>,
  config: McpServerSpec['config'],
  /** Untrusted project, or a trusted one whose `.mcp.json` changed since it was trusted. */
  why: 'untrusted' | 'changed' = 'untrusted',
): McpServerStatus {
  const what = 'command' in config ? [config.command, ...config.args].join(' ') : config.url;
  return {
    ...configErrorStatus(spec, ''),
    transport: 'command' in config ? 'stdio' : 'http',
    state: 'disabled',
    error:
      why === 'changed'
        ? `not started: ${spec.root}/.mcp.json changed or was added since you trusted the project; review the change and trust the project again to run ${what}`
        : `not started: ${spec.root} is not a trusted project (workspace trust); trust it to run ${what}`,
  };
}

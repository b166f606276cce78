import { extname } from 'node:path';
import type { AppConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { findWorkspaceRoot } from './find-root';
import { LspError } from './errors';
import { LspClient } from './lsp-client';
import { ManagedServer } from './managed-server';
import { nodeBinDirs, resolveExecutable } from './resolve-command';
import { isProjectLocal, untrustedInitOptions } from './project-binaries';
import { serverEnv } from './server-env';
import { withProxyEnv } from '../network/proxy-env';
import { buildServerSpecs, specForFile } from './server-specs';

export interface SandboxedCommand {
  argv: string[];
  /** Written to the server's stdin before anything else: the launcher's rules. */
  stdinPrefix?: Buffer;
  /** Its egress proxy's variables (network/proxy-env.ts), where its network is confined. */
  env?: Record<string, string>;
}

/**
 * Turns a server's argv into one that runs it confined to `projectRoot` (the Landlock launcher's
 * prefix, for `agent.server_sandbox`), or refuses. Called per start: a restart gets fresh rules.
 * Provided by the composition root (see sandboxed-launch.ts).
 */
export type ServerSandbox = (
  projectRoot: string,
  argv: string[],
) => Promise<SandboxedCommand | { refused: ErrorPayload }>;

export interface RegistryOptions {
  config: () => AppConfig;
  /** Searched after PATH (this app's node_modules/.bin). */
  binDirs: string[];
  env: NodeJS.ProcessEnv;
  sandbox?: ServerSandbox;
  /** Workspace trust; without it no project is trusted (nothing under a project is executed). */
  isTrusted?: (projectRoot: string) => boolean;
}

export interface RunningServer {
  name: string;
  root: string;
  pid: number | undefined;
}

// One ManagedServer per (server, workspace root, command), created on first use. Everything a
// lookup can refuse is an error payload: LSP off, no server for the extension, not installed,
// sandbox asked for but not available (never started unconfined instead).

export class ServerRegistry implements Disposable {
  private readonly servers = new Map<string, ManagedServer>();
  private disposed = false;

  constructor(private readonly opts: RegistryOptions) {}

  async serverFor(projectRoot: string, file: string): Promise<ManagedServer | ErrorPayload> {
    const config = this.opts.config();
    if (!config.agent.lsp.enabled) {
      return errorPayload('lsp_disabled', 'language servers are off (agent.lsp.enabled is false)');
    }
    const { specs, problems } = buildServerSpecs(config.agent.lsp);
    const spec = specForFile(specs, file);
    if (!spec) {
      const ext = extname(file) || '(no extension)';
      const known = specs.map((s) => `${s.name} (${s.extensions.join(' ')})`).join(', ');
      const extra = problems.length ? `; ignored config: ${problems.join('; ')}` : '';
      return errorPayload(
        'no_server',
        `no language server handles ${ext} files; configured: ${known}${extra}`,
      );
    }
    const root = findWorkspaceRoot(file, projectRoot, spec.rootMarkers);
    const trusted = this.opts.isTrusted?.(projectRoot) ?? false;
    const key = JSON.stringify([
      spec.name,
      root,
      projectRoot,
      spec.command,
      config.agent.server_sandbox,
      trusted,
    ]);
    const existing = this.servers.get(key);
    if (existing) return existing;

    const [program, ...args] = spec.command;
    const local = nodeBinDirs(root, projectRoot);
    const before = trusted ? local : [];
    const resolved = resolveExecutable(program!, root, {
      before,
      after: this.opts.binDirs,
      path: this.opts.env.PATH,
    });
    if (!resolved) {
      const places = ['PATH', ...before, ...this.opts.binDirs].join(', ');
      const skipped = trusted
        ? ''
        : local.length
          ? `; the project's own ${local.join(', ')} is not searched until ${projectRoot} is trusted (workspace trust)`
          : '';
      return errorPayload(
        'server_not_installed',
        `${spec.name} is not installed: ${program} was not found (looked in ${places})${skipped}; ` +
          `install it or set agent.lsp.servers.${spec.name}.command`,
        { server: spec.name },
      );
    }
    const initOptions = trusted ? undefined : untrustedInitOptions(spec.name);
    if (!trusted && (isProjectLocal(resolved, projectRoot) || initOptions === null)) {
      return errorPayload(
        'untrusted_project',
        `workspace trust: ${spec.name} would run ${initOptions === null ? "the project's own TypeScript" : resolved}, ` +
          `inside ${projectRoot}, which is not trusted; nothing under an untrusted project is executed. ` +
          'Trust the project to use it.',
        { server: spec.name },
      );
    }
    const argv = [resolved, ...args];
    const sandbox = config.agent.server_sandbox ? this.opts.sandbox : undefined;
    if (config.agent.server_sandbox && !sandbox) {
      return errorPayload(
        'sandbox_unavailable',
        `agent.server_sandbox is on but no sandbox launcher is available, so ${spec.name} is not started unconfined`,
      );
    }
    if (this.disposed) return errorPayload('server_exited', 'language servers were shut down');
    const start = (command: string[], stdinPrefix?: Buffer, proxy?: Record<string, string>) =>
      LspClient.start({
        name: spec.name,
        argv: command,
        stdinPrefix,
        confined: sandbox !== undefined,
        root,
        env: withProxyEnv(serverEnv(this.opts.env), proxy),
        languageId: spec.languageId,
        pullDiagnostics: spec.pullDiagnostics,
        initializationOptions: initOptions ?? undefined,
      });
    const server = new ManagedServer(spec.name, root, async () => {
      if (!sandbox) return start(argv);
      const confined = await sandbox(projectRoot, argv);
      if ('refused' in confined)
        throw new LspError('sandbox_unavailable', confined.refused.message);
      return start(confined.argv, confined.stdinPrefix, confined.env);
    });
    this.servers.set(key, server);
    return server;
  }

  running(): RunningServer[] {
    return [...this.servers.values()].map((s) => ({ name: s.name, root: s.root, pid: s.pid }));
  }

  /** Every server shut down at once (each has its own deadline), not one after another. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(servers.map((s) => s.dispose()));
  }
}

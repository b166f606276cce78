import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import {
  CancellationTokenSource,
  ConfigurationRequest,
  DidChangeWatchedFilesNotification,
  createProtocolConnection,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  ApplyWorkspaceEditRequest,
  ShowMessageRequest,
  WorkspaceFoldersRequest,
  type ClientCapabilities,
  type DidChangeWatchedFilesRegistrationOptions,
  type RegistrationParams,
  type ProtocolConnection,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';
import { Emitter } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import { EXIT_WAIT_MS, INITIALIZE_TIMEOUT_MS, SHUTDOWN_REQUEST_MS } from './constants';
import { DiagnosticsStore } from './diagnostics-store';
import { DocumentSync } from './document-sync';
import { LspError } from './errors';
import { globToRegExp } from './glob';
import { ServerProcess, type ExitInfo } from './server-process';
import { WorkspaceWatcher } from './workspace-watcher';

// One running language server: its process, the JSON-RPC connection (vscode-jsonrpc framing via
// vscode-languageserver-protocol), the documents it has open and the diagnostics it pushed.
// A read-only client: it never applies a workspace edit a server asks for.

const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false },
    // Not `diagnostic` (pull): pyright 1.1.414 exits when a client offers dynamic registration for it.
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    hover: { contentFormat: ['plaintext', 'markdown'] },
    definition: { linkSupport: true },
    references: {},
  },
  // pyright, gopls and rust-analyzer leave watching the disk to the client (workspace-watcher.ts).
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: false,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: false },
  },
  window: { workDoneProgress: false },
};

export interface ClientExit extends ExitInfo {
  /** True when the exit came from our own shutdown. */
  expected: boolean;
  stderr: string;
}

export interface StartOptions {
  name: string;
  argv: string[];
  root: string;
  env: NodeJS.ProcessEnv;
  languageId: (ext: string) => string;
  pullDiagnostics?: boolean;
  /** Sent with initialize (project-binaries.ts: the app's tsserver for an untrusted project). */
  initializationOptions?: Record<string, unknown>;
  /** Written to the server's stdin first (the sandbox launcher's rules). */
  stdinPrefix?: Buffer;
  /**
   * The server runs under the sandbox launcher. It is then not given the host's pid: Landlock
   * scopes signals, so its liveness probe (`kill(pid, 0)`) gets EPERM and pyright, reading that as
   * a dead client, exits mid-session. The launcher already ends the server when the host dies.
   */
  confined?: boolean;
}

export class LspClient implements Disposable {
  readonly store = new DiagnosticsStore();
  readonly documents: DocumentSync;
  private readonly onExitEmitter = new Emitter<ClientExit>();
  readonly onExit = this.onExitEmitter.event;
  private capabilities: ServerCapabilities = {};
  private shuttingDown = false;
  private exitInfo: ClientExit | undefined;
  private watcher: WorkspaceWatcher | undefined;
  /** Cleared when a pull fails, so the next call goes straight to push. */
  pullDiagnostics: boolean;

  private constructor(
    readonly name: string,
    readonly root: string,
    private readonly proc: ServerProcess,
    private readonly connection: ProtocolConnection,
    languageId: (ext: string) => string,
    pullDiagnostics: boolean,
  ) {
    this.pullDiagnostics = pullDiagnostics;
    this.documents = new DocumentSync(connection, this.store, languageId);
    proc.onExit((info) => {
      this.exitInfo = { ...info, expected: this.shuttingDown, stderr: proc.stderr };
      this.store.clear();
      this.watcher?.dispose();
      connection.dispose();
      this.onExitEmitter.fire(this.exitInfo);
    });
  }

  /** Spawns the server and completes the initialize handshake; rejects with an LspError. */
  static async start(opts: StartOptions): Promise<LspClient> {
    const proc = new ServerProcess(opts.argv, opts.root, opts.env, opts.stdinPrefix);
    const connection = createProtocolConnection(
      new StreamMessageReader(proc.child.stdout),
      new StreamMessageWriter(proc.child.stdin),
    );
    const client = new LspClient(
      opts.name,
      opts.root,
      proc,
      connection,
      opts.languageId,
      opts.pullDiagnostics ?? false,
    );
    client.listen();
    try {
      await client.initialize(opts.initializationOptions, opts.confined ?? false);
    } catch (err) {
      await client.dispose();
      throw err;
    }
    return client;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.capabilities;
  }

  private listen(): void {
    const c = this.connection;
    const folders = [{ uri: pathToFileURL(this.root).href, name: basename(this.root) }];
    c.onNotification(PublishDiagnosticsNotification.type, (params) => this.store.publish(params));
    // Defaults for every setting the server asks about; servers treat null as "use your default".
    c.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => null));
    c.onRequest(WorkspaceFoldersRequest.type, () => folders);
    c.onRequest(RegistrationRequest.type, (params) => this.onRegister(params));
    c.onRequest(UnregistrationRequest.type, () => undefined);
    c.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    c.onRequest(ShowMessageRequest.type, () => null);
    c.onRequest(ApplyWorkspaceEditRequest.type, () => ({
      applied: false,
      failureReason: 'read-only client',
    }));
    c.onUnhandledNotification(() => undefined);
    c.listen();
  }

  /** Of the dynamic registrations, only file watchers need work here; the rest is accepted. */
  private onRegister(params: RegistrationParams): void {
    for (const reg of params.registrations) {
      if (reg.method !== DidChangeWatchedFilesNotification.method) continue;
      const options = reg.registerOptions as DidChangeWatchedFilesRegistrationOptions | undefined;
      const globs = (options?.watchers ?? []).flatMap((w) =>
        typeof w.globPattern === 'string' ? [w.globPattern] : [w.globPattern.pattern],
      );
      if (!globs.length) continue;
      this.watcher ??= new WorkspaceWatcher(this.root, (changes) => {
        // A server that exited between the change and this send: the connection throws at once
        // (not a rejected promise), from a timer, where nothing else would catch it.
        if (this.exitInfo) return;
        try {
          void this.connection
            .sendNotification(DidChangeWatchedFilesNotification.type, { changes })
            .catch(() => undefined);
        } catch {
          // closed: the exit handler disposes the watcher next
        }
      });
      this.watcher.add(globs.map(globToRegExp));
    }
  }

  /** Delivers disk changes seen so far, so the next request is answered with them known. */
  async flushWatchedFiles(): Promise<void> {
    await this.watcher?.flush();
  }

  private async initialize(
    initializationOptions: Record<string, unknown> | undefined,
    confined: boolean,
  ): Promise<void> {
    const result = await this.request<{ capabilities: ServerCapabilities }>(
      InitializeRequest.method,
      {
        processId: confined ? null : process.pid,
        clientInfo: { name: 'mewbo' },
        rootUri: pathToFileURL(this.root).href,
        rootPath: this.root,
        workspaceFolders: [{ uri: pathToFileURL(this.root).href, name: basename(this.root) }],
        capabilities: CLIENT_CAPABILITIES,
        ...(initializationOptions ? { initializationOptions } : {}),
      },
      INITIALIZE_TIMEOUT_MS,
    ).catch((err: unknown) => {
      const detail = this.proc.stderr ? `: ${this.proc.stderr}` : '';
      throw new LspError(
        'server_failed',
        `${this.name} did not start (${(err as Error).message})${detail}`,
      );
    });
    this.capabilities = result.capabilities;
    if (result.capabilities.diagnosticProvider) this.pullDiagnostics = true;
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /**
   * One request with a deadline and an optional abort; rejects with LspError `server_exited`
   * when the server dies first (the caller may retry on a restarted server).
   */
  async request<R>(
    method: string,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<R> {
    if (this.exitInfo) throw this.exitedError();
    if (signal?.aborted) throw new LspError('cancelled', `${method} was cancelled`);
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let subscription: Disposable | undefined;
    const interrupt = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel.cancel();
        reject(
          new LspError('timeout', `${this.name} did not answer ${method} within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      onAbort = () => {
        cancel.cancel();
        reject(new LspError('cancelled', `${method} was cancelled`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      subscription = this.onExit(() => reject(this.exitedError()));
    });
    try {
      return await Promise.race([
        this.connection.sendRequest<R>(method, params, cancel.token),
        interrupt,
      ]);
    } catch (err) {
      if (err instanceof LspError) throw err;
      if (this.exitInfo) throw this.exitedError();
      throw new LspError(
        'request_failed',
        `${this.name} failed ${method}: ${(err as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      void subscription?.dispose();
      cancel.dispose();
    }
  }

  private exitedError(): LspError {
    const info = this.exitInfo;
    const how =
      info?.spawnError ?? (info?.signal ? `signal ${info.signal}` : `code ${info?.code ?? '?'}`);
    const stderr = info?.stderr ? `; stderr: ${info.stderr.slice(-600)}` : '';
    return new LspError('server_exited', `${this.name} exited (${how})${stderr}`);
  }

  /** shutdown, exit, then the process ladder (SIGTERM, SIGKILL) by a deadline. */
  async dispose(): Promise<void> {
    if (!this.exitInfo && !this.shuttingDown) {
      this.shuttingDown = true;
      try {
        await this.request(ShutdownRequest.method, undefined, SHUTDOWN_REQUEST_MS);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // A server that does not answer shutdown gets the signals below.
      }
      await this.proc.waitForExit(EXIT_WAIT_MS);
    }
    this.shuttingDown = true;
    this.watcher?.dispose();
    await this.proc.dispose();
    this.connection.dispose();
    this.onExitEmitter.dispose();
  }
}

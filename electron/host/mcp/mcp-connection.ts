import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CallToolResult,
  GetPromptResult,
  LoggingMessageNotification,
  Progress,
  Prompt,
  ReadResourceResult,
  Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import type {
  McpServerState,
  McpServerStatus,
  McpSignIn,
} from '../../../shared/protocol/commands/mcp';
import type { SecretStore } from '../secrets/secret-store';
import { DEFAULT_MCP_LIMITS, SERVER_LOG_LEVEL, type McpLimits } from './constants';
import { specKey, type McpServerSpec } from './server-spec';
import { StderrTail } from './stderr-tail';
import type { McpLaunch, McpServerSandbox } from './server-sandbox';
import type { McpServerAuth, OpenAuthorization } from './oauth/server-auth';
import { loginCommand, type SignInPolicy } from './sign-in-policy';
import { ElicitationDesk, type ElicitationAsker } from './elicitation';

/** The SDK, loaded with the first connection (sdk.ts). */
type Sdk = typeof import('./sdk');
let sdkModule: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> => (sdkModule ??= import('./sdk'));

function transportKind(spec: McpServerSpec): 'stdio' | 'http' {
  return 'url' in spec.config ? 'http' : 'stdio';
}

/** What a connection is given besides its spec: limits, confinement, where sign-ins are kept. */
export interface McpConnectionOptions {
  limits?: McpLimits;
  sandbox?: McpServerSandbox;
  /** Where an HTTP server's OAuth tokens live (per user); one file or the OS keyring. */
  secrets: SecretStore;
  signIn: SignInPolicy;
  /**
   * The directories the server may work in, answered to its roots/list: a project server's
   * project, for an app server the projects of the sessions using it now. Absent: none.
   */
  roots?: () => readonly string[];
  /**
   * Why a project's HTTP server is not connected from here, or null to connect it: a remote
   * project's `.mcp.json` names addresses as its host sees them (remote-server-launch.ts).
   */
  projectHttpRefusal?: (root: string) => string | null;
}

/**
 * One call as the caller makes it: its abort (Stop), where the server's progress goes, and who
 * answers the server's elicitations meanwhile (absent: they are declined).
 */
export interface CallOptions {
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
  callId?: string;
  elicit?: ElicitationAsker;
}

export type CallOutcome =
  | { ok: true; result: CallToolResult }
  | { ok: false; code: 'mcp_unavailable' | 'mcp_timeout' | 'mcp_protocol_error'; message: string };

const CLIENT_INFO = { name: 'mewbo-desktop', version: '0.1.0' };

/**
 * One MCP server: connects, lists its tools, follows list changes, restarts after a crash with a
 * bounded backoff (then gives up and says so), and stops its process when disposed. A server that
 * fails its first start is not retried: its error is what the user needs to see.
 */
export class McpConnection implements Disposable {
  private stateValue: McpServerState = 'stopped';
  private errorText: string | null = null;
  private toolList: McpTool[] = [];
  /**
   * What else the server offers: resources (attachable with `@`) and prompts (`/` commands), both
   * listed in its Settings row.
   */
  private offered: McpOffered = { resources: [], prompts: [] };
  private restarts = 0;
  private client: Client | null = null;
  private pidOf: () => number | null = () => null;
  /** The project's folder on its SSH host when the last start ran the server there (else null). */
  private remoteRoot: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private connectedAt = 0;
  private everConnected = false;
  private disposed = false;
  private settled: Promise<void> = Promise.resolve();
  private readonly stderr = new StderrTail();
  /**
   * The server's own log messages (notifications/message), for its log view in Settings, and the
   * client's errors with it (`error [mewbo] ...`).
   */
  private readonly serverLog = new StderrTail();
  /** The last error written to the log view, so a state change does not repeat it. */
  private loggedError: string | null = null;
  private readonly changed = new Emitter<McpConnection>();
  /** The server's elicitations, asked in the session of the call in flight. */
  private readonly elicitations: ElicitationDesk;
  /** HTTP servers: their OAuth (created with the SDK, on the first attempt). */
  private auth: McpServerAuth | null = null;
  private signInShown: McpSignIn | null = null;
  /** The sign-in under way, so a second Sign in joins it instead of opening another page. */
  private signingIn: Promise<void> | null = null;

  /** State or tool list changed. */
  readonly onDidChange: Event<McpConnection> = this.changed.event;
  readonly id: string;
  readonly limits: McpLimits;

  constructor(
    readonly spec: McpServerSpec,
    private readonly opts: McpConnectionOptions,
  ) {
    this.id = specKey(spec);
    this.limits = opts.limits ?? DEFAULT_MCP_LIMITS;
    if (spec.config.disabled) this.stateValue = 'disabled';
    this.elicitations = new ElicitationDesk({
      server: spec.name,
      log: (line) => {
        this.serverLog.line(line);
        this.changed.fire(this);
      },
      notify: (line) => opts.signIn.notify(line),
      browser: opts.signIn.browser,
    });
  }

  /** A call's silence limit: the server's `call_timeout_s` when configured, else the default. */
  private get callTimeoutMs(): number {
    const seconds = this.spec.config.call_timeout_s;
    return seconds === undefined ? this.limits.callTimeoutMs : seconds * 1000;
  }

  get state(): McpServerState {
    return this.stateValue;
  }

  get tools(): readonly McpTool[] {
    return this.stateValue === 'running' ? this.toolList : [];
  }

  /** The prompts of a running server, with their arguments (the composer's `/` menu). */
  get prompts(): readonly Prompt[] {
    return this.stateValue === 'running' ? this.offered.prompts : [];
  }

  /** The resources of a running server (the composer's `@` menu). */
  get resources(): readonly OfferedResource[] {
    return this.stateValue === 'running' ? this.offered.resources : [];
  }

  /** prompts/get: the messages of one prompt with its arguments filled in. */
  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return (await this.runningClient()).getPrompt({ name, arguments: args });
  }

  /** resources/read: the contents of one resource. */
  async readResource(uri: string): Promise<ReadResourceResult> {
    return (await this.runningClient()).readResource({ uri });
  }

  private async runningClient(): Promise<Client> {
    if (this.stateValue === 'restarting' || this.stateValue === 'starting')
      await Promise.race([
        this.settled,
        new Promise((r) => setTimeout(r, this.limits.restartWaitMs).unref()),
      ]);
    if (!this.client || this.stateValue !== 'running')
      throw new Error(
        `MCP server '${this.spec.name}' is ${this.stateValue}${this.errorText ? `: ${this.errorText}` : ''}`,
      );
    return this.client;
  }

  /** Starts the server once; resolves when the first attempt has settled (running or failed). */
  start(): Promise<void> {
    if (this.stateValue !== 'stopped' || this.disposed) return this.settled;
    this.settled = this.attempt();
    return this.settled;
  }

  /** Manual restart from Settings: a whole restart budget, now. */
  async restart(): Promise<void> {
    if (this.disposed || this.spec.config.disabled) return;
    this.clearTimer();
    this.restarts = 0;
    await this.closeClient();
    this.settled = this.attempt();
    await this.settled;
  }

  /** The server's OAuth, made once the SDK is loaded; null for a stdio server. */
  private async serverAuth(): Promise<McpServerAuth | null> {
    const config = this.spec.config;
    if (!('url' in config)) return null;
    if (!this.auth) {
      const { McpServerAuth } = await loadSdk();
      this.auth = new McpServerAuth(
        this.spec.name,
        this.id,
        config.url,
        config.oauth,
        this.opts.secrets,
      );
    }
    return this.auth;
  }

  /**
   * @param mayAutoSignIn Whether a 401 may start a sign-in by itself (a headless run's policy); off
   *   for the attempt that follows one, so a server that refuses the new token is not signed in to
   *   again and again.
   */
  private async attempt(mayAutoSignIn = true): Promise<void> {
    if (this.disposed) return;
    this.setState(this.everConnected ? 'restarting' : 'starting');
    const launch = await this.sandboxedLaunch();
    if (launch === 'refused' || this.disposed) return;
    this.remoteRoot = launch?.remote?.root ?? null;
    const sdk = await loadSdk();
    const { Client, openTransport, ToolListChangedNotificationSchema } = sdk;
    const auth = await this.serverAuth();
    auth?.forgetRequests();
    const http = auth
      ? { authProvider: await auth.transportProvider(), fetch: auth.fetch }
      : undefined;
    await this.refreshSignInShown();
    if (this.disposed) return;
    const client = new Client(CLIENT_INFO, {
      capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
    });
    client.setRequestHandler(sdk.ListRootsRequestSchema, async () => ({ roots: this.roots() }));
    // Not setRequestHandler: the SDK would parse the request first (elicitation.ts says why).
    client.fallbackRequestHandler = (request, extra) =>
      this.elicitations.handle(request, extra.signal);
    client.setNotificationHandler(sdk.ElicitationCompleteNotificationSchema, (n) =>
      this.elicitations.completed(n.params.elicitationId),
    );
    client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n) =>
      this.serverLog.line(logLine(n.params)),
    );
    const opened = openTransport(this.spec, this.stderr, launch, http);
    this.client = client;
    this.pidOf = opened.pid;
    client.onclose = () => this.onClosed(client);
    let timeout: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timeout = setTimeout(
          () => reject(new Error(`no answer within ${this.limits.connectTimeoutMs / 1000} s`)),
          this.limits.connectTimeoutMs,
        );
      });
      await Promise.race([client.connect(opened.transport), deadline]);
      const tools = await Promise.race([this.listAll(client), deadline]);
      if (this.disposed || this.client !== client) return;
      if (client.getServerCapabilities()?.logging)
        await client.setLoggingLevel(SERVER_LOG_LEVEL).catch(() => {});
      this.toolList = tools;
      this.offered = await listOffered(client);
      client.setNotificationHandler(
        ToolListChangedNotificationSchema,
        () => void this.refreshTools(client),
      );
      for (const schema of [
        sdk.ResourceListChangedNotificationSchema,
        sdk.PromptListChangedNotificationSchema,
      ])
        client.setNotificationHandler(schema, () => void this.refreshOffered(client));
      this.connectedAt = Date.now();
      this.everConnected = true;
      this.errorText = null;
      this.setState('running');
    } catch (err) {
      if (this.disposed || this.client !== client) return;
      this.errorText = auth ? auth.describe(err, describe(err)) : describe(err);
      this.client = null;
      client.onclose = undefined;
      await client.close().catch(() => {});
      clearTimeout(timeout);
      if (auth?.needsSignIn(err)) {
        this.errorText = auth.signInReason(err);
        await this.needsSignIn(mayAutoSignIn);
      } else if (this.everConnected) this.scheduleRestart();
      else this.setState('failed');
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * The server wants the user. A headless run signs in itself when it can open a browser (bounded
   * wait) and tries once more; otherwise the server waits in 'needs_sign_in', said where the user
   * looks (Settings, the run's stderr), and is never restarted in a loop.
   */
  private async needsSignIn(mayAutoSignIn: boolean): Promise<void> {
    const policy = this.opts.signIn;
    const login = loginCommand(this.spec);
    const name = this.spec.name;
    const reason = this.errorText;
    if (!policy.auto || !mayAutoSignIn) {
      this.errorText = `needs sign-in: ${reason}; use Sign in here, or run ${login}`;
      this.setState('needs_sign_in');
      return;
    }
    const browser = policy.browser;
    if (!browser) {
      this.errorText = `needs sign-in and no browser can be opened here: run ${login}`;
      policy.notify(`MCP server '${name}' ${this.errorText}; going on without it`);
      this.setState('needs_sign_in');
      return;
    }
    try {
      await this.runSignIn(async (url) => {
        policy.notify(
          `MCP server '${name}' needs sign-in: opening ${url} with ${browser.name}; waiting up to ${Math.round(policy.waitMs / 1000)} s`,
        );
        await browser.open(url);
      }, policy.waitMs);
    } catch (err) {
      this.errorText = `sign-in failed: ${describe(err)}; run ${login}`;
      policy.notify(`MCP server '${name}' ${this.errorText}; going on without it`);
      this.setState('needs_sign_in');
      return;
    }
    policy.notify(`MCP server '${name}': signed in`);
    await this.attempt(false);
  }

  /** One sign-in at a time per server; a second request joins the one under way. */
  private runSignIn(open: OpenAuthorization, waitMs: number): Promise<void> {
    this.signingIn ??= (async () => {
      const auth = await this.serverAuth();
      if (!auth) throw new Error(`'${this.spec.name}' is a stdio server: it has no sign-in`);
      try {
        await auth.signIn({ open, waitMs });
      } finally {
        await this.refreshSignInShown();
      }
    })().finally(() => {
      this.signingIn = null;
    });
    return this.signingIn;
  }

  /**
   * A sign-in the user started (Settings, `mcp.signIn`): resolves with the authorization page's
   * address once it is opened; the connection restarts by itself when the sign-in completes.
   */
  async signIn(
    open: OpenAuthorization,
    waitMs: number,
  ): Promise<{ authorizationUrl: string | null; done: Promise<void> }> {
    let shown!: (url: string | null) => void;
    const pageUrl = new Promise<string | null>((resolve) => (shown = resolve));
    // The answer waits for the opener, so it can say what opened the page.
    const done = this.runSignIn(async (url) => {
      try {
        await open(url);
      } finally {
        shown(url);
      }
    }, waitMs).then(
      async () => {
        shown(null);
        this.errorText = null;
        await this.restart();
      },
      (err: unknown) => {
        shown(null);
        this.errorText = `sign-in failed: ${describe(err)}`;
        this.setState('needs_sign_in');
        throw err;
      },
    );
    done.catch(() => {});
    return { authorizationUrl: await pageUrl, done };
  }

  /** Forgets the sign-in; the server then needs signing in again. */
  async signOut(): Promise<void> {
    const auth = await this.serverAuth();
    if (!auth) return;
    await auth.signOut();
    await this.restart();
  }

  private async refreshSignInShown(): Promise<void> {
    if (!this.auth) return;
    this.signInShown = { ...(await this.auth.status()), login_command: loginCommand(this.spec) };
  }

  /** Fresh launcher rules per start; a refusal fails the server, never runs it unconfined. */
  private async sandboxedLaunch(): Promise<McpLaunch | undefined | 'refused'> {
    const config = this.spec.config;
    if ('url' in config) {
      const refusal =
        this.spec.root !== null ? this.opts.projectHttpRefusal?.(this.spec.root) : null;
      if (!refusal) return undefined;
      this.errorText = `not started: ${refusal}`;
      this.setState('failed');
      return 'refused';
    }
    if (!this.opts.sandbox) return undefined;
    const key = specKey(this.spec);
    // A project cannot grant itself network: a `.mcp.json` server's `network` is not read.
    const wrapped = await this.opts.sandbox(
      this.spec.root,
      [config.command, ...config.args],
      this.spec.scope === 'project'
        ? { key, projectServer: this.spec.name }
        : { key, setting: `mcpServers.${this.spec.name}.network`, allow: config.network ?? [] },
    );
    if ('refused' in wrapped) {
      this.errorText = `not started: ${wrapped.refused.message}`;
      this.setState('failed');
      return 'refused';
    }
    return wrapped;
  }

  private roots(): { uri: string; name: string }[] {
    // A server on an SSH host works in the project's folder there, not in the app's copy of it.
    const dirs = this.remoteRoot !== null ? [this.remoteRoot] : (this.opts.roots?.() ?? []);
    return dirs.map((dir) => ({
      uri: pathToFileURL(dir).href,
      name: basename(dir) || dir,
    }));
  }

  /** The directories `roots` answers with changed (a session switched project): tell the server. */
  rootsChanged(): void {
    if (this.stateValue === 'running') void this.client?.sendRootsListChanged().catch(() => {});
  }

  private async listAll(client: Client): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private async refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.listAll(client);
      if (this.client !== client) return;
      this.toolList = tools;
      this.changed.fire(this);
    } catch {
      // A failed re-list keeps the last known tools; a dead connection is caught by onclose.
    }
  }

  private async refreshOffered(client: Client): Promise<void> {
    const offered = await listOffered(client);
    if (this.client !== client) return;
    this.offered = offered;
    this.changed.fire(this);
  }

  private onClosed(client: Client): void {
    // Before `running`, the attempt in progress sees the close as its own failure.
    if (this.disposed || this.client !== client || this.stateValue !== 'running') return;
    this.client = null;
    this.errorText = `exited unexpectedly${this.stderrHint()}`;
    this.scheduleRestart();
  }

  /** HTTP servers have no process to watch: a call that cannot reach one counts as its crash. */
  private connectionLost(client: Client, err: unknown): void {
    if (this.disposed || this.client !== client) return;
    this.client = null;
    client.onclose = undefined;
    void client.close().catch(() => {});
    this.errorText = `connection lost: ${describe(err)}`;
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (Date.now() - this.connectedAt > this.limits.healthyResetMs) this.restarts = 0;
    if (this.restarts >= this.limits.maxRestarts) {
      this.errorText = `gave up after ${this.limits.maxRestarts} restarts: ${this.errorText ?? 'unknown error'}`;
      this.setState('failed');
      return;
    }
    const delay = Math.min(
      this.limits.restartBaseMs * 2 ** this.restarts,
      this.limits.restartMaxDelayMs,
    );
    this.restarts++;
    this.setState('restarting');
    this.clearTimer();
    let release!: () => void;
    this.settled = new Promise<void>((resolve) => (release = resolve));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt().finally(release);
    }, delay);
  }

  /** Calls a tool by its MCP name; a call arriving during a restart waits for it (bounded). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    call: CallOptions,
    afterSignIn = false,
  ): Promise<CallOutcome> {
    const { signal } = call;
    if (this.stateValue === 'restarting' || this.stateValue === 'starting') {
      await Promise.race([
        this.settled,
        new Promise((r) => setTimeout(r, this.limits.restartWaitMs).unref()),
      ]);
    }
    const client = this.client;
    if (!client || this.stateValue !== 'running') {
      return {
        ok: false,
        code: 'mcp_unavailable',
        message: `MCP server '${this.spec.name}' is ${this.stateValue}${this.errorText ? `: ${this.errorText}` : ''}`,
      };
    }
    try {
      // Aborting `signal` (Stop) makes the SDK send notifications/cancelled for this request. A
      // progress handler makes the SDK ask for progress; each notification resets the timeout.
      const eliciting = { callId: call.callId ?? '', asker: call.elicit, signal };
      const result = (await this.elicitations.during(eliciting, () =>
        client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: this.callTimeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => call.onProgress?.(progress),
        }),
      )) as CallToolResult;
      return { ok: true, result };
    } catch (err) {
      if (this.auth?.needsSignIn(err)) {
        await this.callNeedsSignIn(client, err, afterSignIn);
        if (!afterSignIn && this.stateValue === 'running')
          return this.callTool(name, args, call, true);
        const scope = this.auth.wantedScope;
        return {
          ok: false,
          code: 'mcp_unavailable',
          message: `MCP server '${this.spec.name}' needs sign-in${scope ? ` (it asks for ${scope})` : ''}: the user signs in from Settings or with ${loginCommand(this.spec)}, then the call can be made again`,
        };
      }
      // First: the SDK rejects a cancelled call with RequestTimeout, which Stop is not.
      if (signal.aborted)
        return { ok: false, code: 'mcp_unavailable', message: 'the call was cancelled' };
      // A client exists, so the SDK is loaded: this await resolves at once.
      const { McpError, ErrorCode } = await loadSdk();
      // The SDK ended the call and sent the server notifications/cancelled for it.
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
        return {
          ok: false,
          code: 'mcp_timeout',
          message: `MCP server '${this.spec.name}' sent neither an answer nor progress for '${name}' within ${this.callTimeoutMs / 1000} s, so the call was ended and cancelled on the server`,
        };
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)
        return { ok: false, code: 'mcp_protocol_error', message: err.message };
      this.connectionLost(client, err);
      return {
        ok: false,
        code: 'mcp_unavailable',
        message: `MCP server '${this.spec.name}' went away during the call: ${describe(err)}`,
      };
    }
  }

  /**
   * A call the server refused for want of sign-in: its token is gone (401 after the SDK tried to
   * refresh it) or it asks for more scope (403, step-up). The server waits for the user; a headless
   * run signs in when it can (not again for the retried call), and the caller retries once.
   */
  private async callNeedsSignIn(client: Client, err: unknown, afterSignIn: boolean): Promise<void> {
    if (this.client !== client) return;
    this.client = null;
    client.onclose = undefined;
    await client.close().catch(() => {});
    this.errorText = this.auth!.signInReason(err);
    await this.needsSignIn(!afterSignIn);
  }

  status(): McpServerStatus {
    return {
      id: this.id,
      name: this.spec.name,
      scope: this.spec.scope,
      root: this.spec.root,
      transport: transportKind(this.spec),
      state: this.stateValue,
      error: this.errorText,
      tools: this.tools.map((t) => t.name),
      restarts: this.restarts,
      pid: this.stateValue === 'running' ? this.pidOf() : null,
      stderr_tail: this.stderr.snapshot(),
      log_tail: this.serverLog.snapshot(),
      resources: this.resources.map((r) => ({
        uri: r.uri,
        name: r.name,
        description: r.description,
      })),
      prompts: this.prompts.map((p) => ({ name: p.name, description: p.description ?? null })),
      sign_in: this.signInShown,
    };
  }

  private stderrHint(): string {
    const tail = this.stderr.snapshot();
    return tail.length ? ` (stderr: ${tail.slice(-3).join(' | ')})` : '';
  }

  private setState(state: McpServerState): void {
    if (state === 'failed' && this.errorText && !this.errorText.includes('stderr:'))
      this.errorText += this.stderrHint();
    // What went wrong also goes to the server's log view, once per error, so the row's error
    // has its history (a sign-in that failed, then a crash) where the user reads the server's log.
    if (this.errorText && this.errorText !== this.loggedError && state !== 'running')
      this.serverLog.line(`error [mewbo] ${this.errorText}`);
    this.loggedError = this.errorText;
    this.stateValue = state;
    this.changed.fire(this);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.onclose = undefined;
    await client.close().catch(() => {});
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimer();
    await this.closeClient();
    if (this.stateValue !== 'disabled') this.stateValue = 'stopped';
    this.changed.fire(this);
    this.changed.dispose();
  }
}

/** A resource as the `@` menu and Settings show it. */
export interface OfferedResource {
  uri: string;
  name: string;
  description: string | null;
  mimeType?: string;
}

interface McpOffered {
  resources: OfferedResource[];
  prompts: Prompt[];
}

/**
 * The resources and prompts a server offers (first pages: what the menus offer). A server without
 * the capability, or one whose list fails, offers none.
 */
async function listOffered(client: Client): Promise<McpOffered> {
  const caps = client.getServerCapabilities();
  const [resources, prompts] = await Promise.all([
    caps?.resources
      ? client.listResources().then(
          (r) =>
            r.resources.map((x) => ({
              uri: x.uri,
              name: x.name,
              description: x.description ?? null,
              ...(x.mimeType ? { mimeType: x.mimeType } : {}),
            })),
          () => [],
        )
      : [],
    caps?.prompts
      ? client.listPrompts().then(
          (r) => r.prompts,
          () => [],
        )
      : [],
  ]);
  return { resources, prompts };
}

/** A server's log message as one line of its log view: `level [logger] text`. */
function logLine(params: LoggingMessageNotification['params']): string {
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  return `${params.level}${params.logger ? ` [${params.logger}]` : ''} ${data}`;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    const cause = (err as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? `: ${cause.message}` : '';
    return `${code && !err.message.includes(code) ? `${code}: ` : ''}${err.message}${causeText}`;
  }
  return String(err);
}

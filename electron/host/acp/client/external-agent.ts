import * as acp from '@agentclientprotocol/sdk';
import type { ExternalAgentConfig } from '../../config/schema';
import type { Disposable } from '../../lifecycle/disposable';
import { AgentFailure } from './agent-failure';
import { AgentProcess, type AgentSandbox } from './agent-process';
import { readTextFile, writeTextFile, type ClientFilesDeps } from './client-files';
import type { ClientTerminals } from './client-terminals';
import { SETUP_TIMEOUT_MS } from './constants';
import type { UpdateLog } from './update-log';

// One external agent hosted over ACP for one session (issue 30 part 1): its confined process, the
// connection the SDK's ClientApp runs on it, and its ACP session. The app is the client: it
// initializes with what it serves (fs and terminals), authenticates where the agent asks,
// creates or (where supported) loads the agent's session in the project root with the user's MCP
// servers, and answers the agent's requests through the app's own files, shells and approvals.

export interface ExternalAgentOptions {
  name: string;
  agent: ExternalAgentConfig;
  root: string;
  appEnv: NodeJS.ProcessEnv;
  sandbox: AgentSandbox;
  mcpServers: acp.McpServer[];
  /** The agent's ACP session of an earlier process, resumed with session/load if it can. */
  resume?: string;
  files: ClientFilesDeps;
  terminals: ClientTerminals;
  updates: UpdateLog;
  /**
   * The agent asks to sign in and offers several ways: the id the user picked on the session's
   * card, null when they declined, undefined when nobody can be asked (no turn, headless).
   */
  chooseAuth(methods: acp.AuthMethod[]): Promise<string | null | undefined>;
  /** An approval the user (or the mode) decides; 'cancelled' when the turn ends first. */
  permission(req: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
}

export class ExternalAgent implements Disposable {
  /** Says why the agent ended (its exit, its last stderr lines), once it has. */
  readonly ended: Promise<string>;
  private loading = false;

  private constructor(
    private readonly opts: ExternalAgentOptions,
    private readonly proc: AgentProcess,
    private readonly conn: acp.ClientConnection,
    readonly initialized: acp.InitializeResponse,
    public sessionId: string,
    public modes: acp.SessionModeState | null,
    /** The agent's session settings (ACP configOptions) as it reported them last. */
    public configOptions: acp.SessionConfigOption[] | null,
    /** The agent could not resume its earlier session: it starts over, remembering nothing. */
    readonly lostHistory: boolean,
  ) {
    this.ended = proc.exited.then(({ code, signal }) => {
      const tail = proc.stderrTail();
      return `the agent '${opts.name}' exited (${signal ? `signal ${signal}` : `code ${code}`})${tail ? `; its last output: ${tail}` : ''}`;
    });
    // A connection that broke (a stream error, an oversized line) leaves nothing to talk to.
    void conn.closed.then(() => proc.dispose());
  }

  static async open(opts: ExternalAgentOptions): Promise<ExternalAgent> {
    const proc = await AgentProcess.start(opts);
    if ('error' in proc) throw new AgentFailure(proc.error);
    const holder: { agent?: ExternalAgent } = {};
    const app = acp
      .client({ name: 'mewbo' })
      .onNotification('session/update', ({ params }) => {
        const agent = holder.agent;
        // A load replays what the session's log already holds.
        if (agent?.loading || params.sessionId !== agent?.sessionId) return;
        agent.follow(params.update);
        void opts.updates.apply(params.update);
      })
      .onRequest('session/request_permission', async ({ params }) => {
        await opts.updates.ensureToolCall(params.toolCall);
        return opts.permission(params);
      })
      .onRequest('fs/read_text_file', async ({ params }) => ({
        content: await readTextFile(opts.files, params),
      }))
      .onRequest('fs/write_text_file', async ({ params }) => {
        await writeTextFile(opts.files, params);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => opts.terminals.create(params))
      .onRequest('terminal/output', ({ params }) => opts.terminals.output(params.terminalId))
      .onRequest('terminal/wait_for_exit', ({ params, signal }) =>
        opts.terminals.waitForExit(params.terminalId, signal),
      )
      .onRequest('terminal/kill', async ({ params }) => {
        await opts.terminals.kill(params.terminalId);
        return {};
      })
      .onRequest('terminal/release', async ({ params }) => {
        await opts.terminals.release(params.terminalId);
        return {};
      });
    const conn = app.connect(proc.stream);
    const exitedEarly = proc.exited.then(({ code, signal }) => {
      const tail = proc.stderrTail();
      throw new AgentFailure(
        `the agent '${opts.name}' exited while starting (${signal ? `signal ${signal}` : `code ${code}`})${tail ? `; its last output: ${tail}` : ''}`,
      );
    });
    // Raced during setup only: an exit after it is the turn's to report, never an unhandled rejection.
    exitedEarly.catch(() => {});
    const setup = <T>(what: string, p: Promise<T>): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new AgentFailure(
                `the agent '${opts.name}' did not answer ${what} within ${SETUP_TIMEOUT_MS / 1000} s`,
              ),
            ),
          SETUP_TIMEOUT_MS,
        );
      });
      return Promise.race([p, late, exitedEarly])
        .finally(() => clearTimeout(timer))
        .catch((err: unknown) => {
          if (err instanceof AgentFailure) throw err;
          throw new AgentFailure(
            `the agent '${opts.name}' refused ${what}: ${(err as Error).message}`,
          );
        });
    };
    try {
      const initialized = await setup(
        'initialize',
        conn.agent.request('initialize', {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: { name: 'mewbo', version: '0.1.0' },
        }),
      );
      const mcpServers = opts.mcpServers.filter(
        (s) =>
          !('type' in s) ||
          (s.type === 'http'
            ? initialized.agentCapabilities?.mcpCapabilities?.http
            : initialized.agentCapabilities?.mcpCapabilities?.sse),
      );
      const start = async () => {
        if (opts.resume && initialized.agentCapabilities?.loadSession) {
          const loaded = await setup(
            'session/load',
            conn.agent.request('session/load', {
              sessionId: opts.resume,
              cwd: opts.root,
              mcpServers,
            }),
          ).catch(() => null);
          if (loaded !== null)
            return {
              sessionId: opts.resume,
              modes: loaded?.modes ?? null,
              configOptions: loaded?.configOptions ?? null,
              lostHistory: false,
            };
        }
        const made = await setup(
          'session/new',
          conn.agent.request('session/new', { cwd: opts.root, mcpServers }),
        );
        return {
          sessionId: made.sessionId,
          modes: made.modes ?? null,
          configOptions: made.configOptions ?? null,
          lostHistory: Boolean(opts.resume),
        };
      };
      let started;
      try {
        started = await start();
      } catch (err) {
        if (!isAuthRequired(err) && !(err instanceof AgentFailure && /auth/i.test(err.message)))
          throw err;
        await signIn(opts, initialized, (id) =>
          setup('authenticate', conn.agent.request('authenticate', { methodId: id })),
        );
        started = await start();
      }
      const agent = new ExternalAgent(
        opts,
        proc,
        conn,
        initialized,
        started.sessionId,
        started.modes,
        started.configOptions,
        started.lostHistory,
      );
      holder.agent = agent;
      return agent;
    } catch (err) {
      conn.close();
      await proc.dispose();
      throw err;
    }
  }

  /** The prompt turn: resolves with its stop reason; `signal` (Stop) sends session/cancel. */
  prompt(blocks: acp.ContentBlock[], signal: AbortSignal): Promise<acp.StopReason> {
    const onStop = () =>
      void this.conn.agent.notify('session/cancel', { sessionId: this.sessionId }).catch(() => {});
    signal.addEventListener('abort', onStop, { once: true });
    const ask = () =>
      this.conn.agent.request('session/prompt', { sessionId: this.sessionId, prompt: blocks });
    const turn = ask()
      .catch(async (err: unknown) => {
        // A sign-in that expired: signed in again, the prompt is sent once more.
        if (!isAuthRequired(err) || this.conn.signal.aborted) throw err;
        await signIn(this.opts, this.initialized, (methodId) =>
          this.conn.agent.request('authenticate', { methodId }),
        );
        return ask();
      })
      .then(
        (r) => r.stopReason,
        async (err: unknown) => {
          // The connection closed under the request: the process's end says why.
          if (this.conn.signal.aborted) throw new AgentFailure(await this.ended);
          if (err instanceof AgentFailure) throw err;
          throw new AgentFailure(
            `the agent '${this.opts.name}' failed the turn: ${(err as Error).message}`,
          );
        },
      );
    const ended = this.ended.then((why) => {
      throw new AgentFailure(why);
    });
    return Promise.race([turn, ended]).finally(() => signal.removeEventListener('abort', onStop));
  }

  /** The agent's own mode id, when it offers one. */
  async setMode(modeId: string): Promise<void> {
    await this.conn.agent.request('session/set_mode', { sessionId: this.sessionId, modeId });
    if (this.modes) this.modes = { ...this.modes, currentModeId: modeId };
  }

  /** One of the agent's session settings; the agent answers with all of them as they now are. */
  async setConfigOption(
    configId: string,
    value: string | boolean,
  ): Promise<acp.SessionConfigOption[]> {
    const { configOptions } = await this.conn.agent.request(
      'session/set_config_option',
      typeof value === 'boolean'
        ? { sessionId: this.sessionId, configId, type: 'boolean', value }
        : { sessionId: this.sessionId, configId, value },
    );
    this.configOptions = configOptions;
    return configOptions;
  }

  /** Keeps the modes and settings the agent reports during a turn. */
  private follow(u: acp.SessionUpdate): void {
    if (u.sessionUpdate === 'current_mode_update' && this.modes)
      this.modes = { ...this.modes, currentModeId: u.currentModeId };
    if (u.sessionUpdate === 'config_option_update') this.configOptions = u.configOptions;
  }

  get promptCapabilities(): acp.PromptCapabilities {
    return this.initialized.agentCapabilities?.promptCapabilities ?? {};
  }

  async dispose(): Promise<void> {
    this.conn.close();
    await this.opts.terminals.dispose();
    await this.proc.dispose();
  }
}

function isAuthRequired(err: unknown): boolean {
  return err instanceof acp.RequestError
    ? err.code === -32000
    : /auth/i.test(String((err as Error)?.message));
}

/**
 * Signs in with the method the config names, or the agent's only one, or the one the user picks
 * on the session's card; declined or with nobody to ask, says which methods there are.
 */
async function signIn(
  opts: ExternalAgentOptions,
  init: acp.InitializeResponse,
  run: (methodId: string) => Promise<unknown>,
): Promise<void> {
  // A terminal method runs the agent's own login screen; this client announced no such thing.
  const methods = (init.authMethods ?? []).filter((m) => !('type' in m && m.type === 'terminal'));
  let chosen = opts.agent.auth_method ?? (methods.length === 1 ? methods[0]!.id : undefined);
  if (!chosen && methods.length > 1) {
    const picked = await opts.chooseAuth(methods);
    if (picked === null)
      throw new AgentFailure(
        `you did not sign in to the agent '${opts.name}', and it works only signed in: send a message to be asked again`,
      );
    chosen = picked;
  }
  if (!chosen || !methods.some((m) => m.id === chosen))
    throw new AgentFailure(
      `the agent '${opts.name}' needs you to sign in; its methods: ${methods.map((m) => `${m.id} (${m.name}${m.description ? `: ${m.description}` : ''})`).join(', ') || 'none'}. Set agents.${opts.name}.auth_method in configs/app.json to one of them, or sign in with the agent's own command first.`,
    );
  await run(chosen);
}

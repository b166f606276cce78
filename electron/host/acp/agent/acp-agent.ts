import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type AvailableCommand,
  type ClientCapabilities,
  type PermissionOption,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
  type ToolCallContent,
} from '@agentclientprotocol/sdk';
import type { SessionEvent, SessionEventOf } from '../../../../shared/protocol/events';
import type { AgentService } from '../../agent/agent-service';
import { currentMode, lastRunState } from '../../agent/session-state';
import type { CommandService } from '../../commands/command-service';
import type { AppConfig } from '../../config/schema';
import type { ModelSettings } from '../../models/model-settings';
import { sendToSession } from '../../handlers/sessions';
import { HostError } from '../../rpc/host-error';
import type { Session } from '../../sessions/session';
import type { ClientServices } from '../../tools/services';
import type { SessionManager } from '../../sessions/session-manager';
import { checkSessionRoot, type RootLimits } from '../../sessions/session-root';
import { ACP_MODES, AGENT_NAME, AGENT_TITLE, NO_MODEL_CODES, TURN_FAILED_CODE } from './constants';
import { authenticate, AUTH_METHODS, requireModel } from './agent-auth';
import { configOptions, setConfigOption, type ConfigDeps } from './session-config';
import { listSessions } from './session-list';
import { clientEditorFiles } from './client-files';
import { clientEditorTerminals } from './client-terminals';
import { promptMessage } from './prompt-content';
import { SessionUpdateMapper } from './session-updates';
import { diffContent, textContent } from './tool-call-view';

// `mewbo acp`: the app's own agent behind the Agent Client Protocol, for Zed and other editors.
// Sessions are the app's sessions (on its log, shown in the desktop app too); a prompt is a user
// message whose run streams back as `session/update`s; the app's approval requests and plan
// proposals become `session/request_permission`, and the answer is logged like any decision.
// The run is the app's own (its sandbox, rules, deny list, checkpoints): ACP only carries it.

export interface AcpAgentDeps {
  sessions: SessionManager;
  agent: AgentService;
  config: AppConfig;
  commands: CommandService;
  models: ModelSettings;
  rootLimits: RootLimits;
  version: string;
}

/** A prompt turn in progress on one session. */
interface Turn {
  /** Aborted when the turn ends or is cancelled: pending permission requests are withdrawn. */
  readonly ended: AbortController;
  cancelled: boolean;
}

/** A session this connection made or loaded, and its turn (one at a time). */
interface OpenSession {
  session: Session;
  root: string;
  turn: Turn | null;
}

const BUILTIN_COMMANDS: AvailableCommand[] = [
  { name: 'compact', description: 'Summarize the conversation so far to free context' },
  { name: 'clear', description: 'Start the context over (the log keeps everything)' },
];

const APPROVAL_OPTIONS = {
  once: { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  always: { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  reject: { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
} satisfies Record<string, PermissionOption>;

const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'approve', name: 'Approve the plan', kind: 'allow_once' },
  { optionId: 'reject', name: 'Keep planning', kind: 'reject_once' },
];

function sessionNotOpen(sessionId: string): RequestError {
  return new RequestError(
    -32002,
    `Resource not found: no session '${sessionId}' on this connection: make one with session/new or open it with session/load`,
    { sessionId },
  );
}

/** The project root a `cwd` names: an absolute, existing directory no session is barred from. */
function projectRoot(cwd: string, limits: RootLimits): string {
  if (!isAbsolute(cwd))
    throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path (got '${cwd}')`);
  let root: string;
  try {
    root = realpathSync(cwd);
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    throw RequestError.invalidParams({ cwd }, `cwd ${cwd} is not an existing directory`);
  }
  try {
    checkSessionRoot(root, limits);
  } catch (err) {
    throw RequestError.invalidParams({ cwd }, (err as Error).message);
  }
  return root;
}

/** The folder a session/list `cwd` names (as session roots are kept: its real path). */
function listedRoot(cwd: string): string {
  if (!isAbsolute(cwd))
    throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path (got '${cwd}')`);
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/** Why a turn ended, from what it logged; a failed run is a JSON-RPC error with its reason. */
function stopReasonOf(events: readonly SessionEvent[], turn: Turn): StopReason {
  if (turn.cancelled) return 'cancelled';
  const last = lastRunState(events);
  if (last?.state === 'stopped') return 'cancelled';
  if (last?.state === 'failed') {
    const noModel = events.find((e) => e.type === 'error' && NO_MODEL_CODES.includes(e.code ?? ''));
    if (noModel?.type === 'error') throw RequestError.authRequired(undefined, noModel.message);
    throw new RequestError(TURN_FAILED_CODE, last.reason ?? 'the run failed');
  }
  if (events.some((e) => e.type === 'error' && e.code === 'step_limit')) return 'max_turn_requests';
  const answer = events.findLast((e) => e.type === 'assistant_message' && e.agent_id === 'root');
  const reason = answer?.type === 'assistant_message' ? answer.stop_reason : undefined;
  if (reason === 'max_tokens') return 'max_tokens';
  if (reason === 'refusal') return 'refusal';
  return 'end_turn';
}

/** An approval's detail as ACP content: a diff when it is one, else the text. */
function approvalContent(detail: string, root: string): ToolCallContent[] {
  const diff = detail.startsWith('--- ') ? diffContent(detail, root) : [];
  return diff.length ? diff : [textContent(detail)];
}

export class AcpAgent {
  private readonly open = new Map<string, OpenSession>();
  private client: ClientCapabilities = {};
  readonly app: AgentApp;

  constructor(private readonly deps: AcpAgentDeps) {
    this.app = agent({ name: AGENT_NAME })
      .onRequest(methods.agent.initialize, ({ params }) => {
        this.client = params.clientCapabilities ?? {};
        return {
          protocolVersion: PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            sessionCapabilities: { list: {} },
          },
          agentInfo: { name: AGENT_NAME, title: AGENT_TITLE, version: deps.version },
          authMethods: [...AUTH_METHODS],
        };
      })
      .onRequest(methods.agent.authenticate, async ({ params }) => {
        await authenticate(deps.models, params.methodId);
        return {};
      })
      .onRequest(methods.agent.session.list, ({ params }) =>
        listSessions(
          deps.sessions,
          params.cwd ? listedRoot(params.cwd) : null,
          params.cursor ?? null,
        ),
      )
      .onRequest(methods.agent.session.new, async ({ params, client }) => {
        const root = projectRoot(params.cwd, deps.rootLimits);
        await requireModel(deps.models);
        const session = await deps.sessions.create({ project: null, root });
        this.open.set(session.id, { session, root, turn: null });
        this.announceCommands(client, session.id, root);
        return {
          sessionId: session.id,
          modes: this.modes(session),
          configOptions: await configOptions(session, this.config),
        };
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        const root = projectRoot(params.cwd, deps.rootLimits);
        const session = await deps.sessions.get(params.sessionId).catch(() => {
          throw new RequestError(-32002, `Resource not found: no session '${params.sessionId}'`, {
            sessionId: params.sessionId,
          });
        });
        if (session.meta.root !== root)
          throw RequestError.invalidParams(
            { cwd: params.cwd },
            `session ${session.id} works in ${session.meta.root ?? 'no project'}, not ${root}: open it with that cwd`,
          );
        const mapper = new SessionUpdateMapper({ root, replay: true });
        for (const e of session.events())
          for (const update of mapper.updates(e)) await this.send(client, session.id, update);
        this.open.set(session.id, this.open.get(session.id) ?? { session, root, turn: null });
        this.announceCommands(client, session.id, root);
        return {
          modes: this.modes(session),
          configOptions: await configOptions(session, this.config),
        };
      })
      .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
        const open = this.opened(params.sessionId);
        return {
          configOptions: await setConfigOption(
            open.session,
            params.configId,
            params.value,
            this.config,
          ),
        };
      })
      .onRequest(methods.agent.session.setMode, async ({ params }) => {
        const open = this.opened(params.sessionId);
        const mode = ACP_MODES.find((m) => m.id === params.modeId);
        if (!mode)
          throw RequestError.invalidParams(
            { modeId: params.modeId },
            `no mode '${params.modeId}': one of ${ACP_MODES.map((m) => m.id).join(', ')}`,
          );
        await deps.agent.setMode(open.session, mode.id);
        return {};
      })
      .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
        const open = this.opened(params.sessionId);
        if (open.turn)
          throw RequestError.invalidRequest(
            { sessionId: params.sessionId },
            'a prompt is already running in this session: wait for it or send session/cancel',
          );
        const message = promptMessage(params.prompt, open.root);
        const turn: Turn = { ended: new AbortController(), cancelled: false };
        open.turn = turn;
        try {
          return { stopReason: await this.runTurn(client, open, turn, message) };
        } finally {
          turn.ended.abort();
          open.turn = null;
        }
      })
      .onNotification(methods.agent.session.cancel, async ({ params }) => {
        const open = this.open.get(params.sessionId);
        if (!open?.turn) return;
        open.turn.cancelled = true;
        open.turn.ended.abort();
        await deps.agent.stop(open.session);
      });
  }

  /** The client went away: every turn still running is stopped (its waits logged as stopped). */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.open.values()]
        .filter((o) => o.turn)
        .map((o) => {
          o.turn!.cancelled = true;
          o.turn!.ended.abort();
          return this.deps.agent.stop(o.session);
        }),
    );
  }

  /** What the session's config options are made from. */
  private get config(): ConfigDeps {
    return {
      agent: this.deps.agent,
      models: this.deps.models,
      permissionMode: this.deps.config.permission_mode,
    };
  }

  private opened(sessionId: string): OpenSession {
    const open = this.open.get(sessionId);
    if (!open) throw sessionNotOpen(sessionId);
    return open;
  }

  private modes(session: Session): SessionModeState {
    return {
      currentModeId: currentMode(session.events(), this.deps.config.permission_mode),
      availableModes: ACP_MODES.map(({ id, name, description }) => ({ id, name, description })),
    };
  }

  private send(client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> {
    return client.notify(methods.client.session.update, { sessionId, update });
  }

  /** The `/` commands of the root (after the session/new or session/load answer is out). */
  private announceCommands(client: AgentContext, sessionId: string, root: string): void {
    setImmediate(() => {
      void this.deps.commands
        .list(root)
        .then((entries) =>
          this.send(client, sessionId, {
            sessionUpdate: 'available_commands_update',
            availableCommands: [
              ...BUILTIN_COMMANDS,
              ...entries.map((c) => ({
                name: c.name,
                description: c.description,
                ...(c.argument_hint ? { input: { hint: c.argument_hint } } : {}),
              })),
            ],
          }),
        )
        .catch(() => {});
    });
  }

  private async runTurn(
    client: AgentContext,
    open: OpenSession,
    turn: Turn,
    message: ReturnType<typeof promptMessage>,
  ): Promise<StopReason> {
    const { session, root } = open;
    const builtin = /^\/(compact|clear)$/.exec(message.text);
    if (builtin && !message.images.length && !message.mentions.length) {
      const done = await this.deps.agent.compact(session, { clear: builtin[1] === 'clear' });
      const text = done.compacted
        ? builtin[1] === 'clear'
          ? 'The context starts over from here.'
          : 'The conversation so far is summarized.'
        : (done.message ?? 'Nothing changed.');
      await this.send(client, session.id, {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text },
      });
      return 'end_turn';
    }
    const from = session.length;
    const mapper = new SessionUpdateMapper({ root, replay: false });
    // Updates go out in log order; a client that stopped reading does not stop the turn.
    let sent = Promise.resolve();
    const post = (update: SessionUpdate) => {
      sent = sent.then(() => this.send(client, session.id, update)).catch(() => {});
    };
    const asks: Promise<void>[] = [];
    const sub = session.subscribe(from, (item) => {
      for (const update of mapper.updates(item)) post(update);
      // A mode the run switched (an approved plan) shows in the editor's config options too.
      if (item.type === 'mode_change' || item.type === 'model_change')
        sent = sent
          .then(async () =>
            this.send(client, session.id, {
              sessionUpdate: 'config_option_update',
              configOptions: await configOptions(session, this.config),
            }),
          )
          .catch(() => {});
      // Asked once the editor has what came before (the call, or the connection's card).
      const before = sent;
      if (item.type === 'approval_request')
        asks.push(before.then(() => this.askApproval(client, open, turn, item)));
      if (item.type === 'plan')
        asks.push(before.then(() => this.askPlan(client, open, turn, item)));
    });
    try {
      await sendToSession(
        { sessions: this.deps.sessions, runner: this.deps.agent },
        session.id,
        message.text,
        {
          capabilities: [],
          clientServices: this.clientServices(client, session.id, turn, post),
          ...(message.images.length ? { images: message.images } : {}),
          ...(message.mentions.length ? { mentions: message.mentions } : {}),
        },
      ).catch((err: unknown) => {
        if (err instanceof HostError)
          throw NO_MODEL_CODES.includes(err.code)
            ? RequestError.authRequired(undefined, err.message)
            : new RequestError(TURN_FAILED_CODE, err.message);
        throw err;
      });
      await this.deps.agent.idle(session.id);
    } finally {
      await sub.dispose();
      turn.ended.abort();
      await Promise.allSettled(asks);
      await sent;
    }
    return stopReasonOf(session.events(from), turn);
  }

  /** What the editor serves this turn's tools: its files and terminals, as far as it offers them. */
  private clientServices(
    client: AgentContext,
    sessionId: string,
    turn: Turn,
    post: (update: SessionUpdate) => void,
  ): ClientServices {
    const editorFiles = clientEditorFiles(client, this.client.fs, sessionId, turn.ended.signal);
    const editorTerminals = clientEditorTerminals(
      client,
      this.client.terminal,
      sessionId,
      turn.ended.signal,
      (toolCallId, terminalId) =>
        post({
          sessionUpdate: 'tool_call_update',
          toolCallId,
          content: [{ type: 'terminal', terminalId }],
        }),
    );
    return {
      ...(editorFiles ? { editorFiles } : {}),
      ...(editorTerminals ? { editorTerminals } : {}),
    };
  }

  /** An approval the run waits on, asked of the editor; its answer is the user's decision. */
  private async askApproval(
    client: AgentContext,
    open: OpenSession,
    turn: Turn,
    request: SessionEventOf<'approval_request'>,
  ): Promise<void> {
    const options: PermissionOption[] = [
      APPROVAL_OPTIONS.once,
      ...(request.suggested_rule
        ? [{ ...APPROVAL_OPTIONS.always, name: `Always allow ${request.suggested_rule}` }]
        : []),
      APPROVAL_OPTIONS.reject,
    ];
    const chosen = await this.ask(client, open, turn, {
      toolCallId: request.call_id,
      title: request.summary,
      content: approvalContent(request.detail, open.root),
      options,
    });
    if (chosen === null) return;
    const allow =
      chosen === APPROVAL_OPTIONS.once.optionId || chosen === APPROVAL_OPTIONS.always.optionId;
    await this.deps.agent.decisions
      .decideApproval(
        open.session.id,
        request.approval_id,
        allow ? 'allow' : 'deny',
        allow ? undefined : 'rejected in the editor',
        undefined,
        chosen === APPROVAL_OPTIONS.always.optionId ? 'session' : undefined,
      )
      // Decided meanwhile (the run was stopped, or the desktop app answered first): that stands.
      .catch(() => {});
  }

  /** A plan proposed in plan mode, asked of the editor: approve (the run acts on it) or not. */
  private async askPlan(
    client: AgentContext,
    open: OpenSession,
    turn: Turn,
    plan: SessionEventOf<'plan'>,
  ): Promise<void> {
    const chosen = await this.ask(client, open, turn, {
      toolCallId: plan.call_id ?? plan.plan_id,
      title: 'Approve the plan',
      content: [textContent(plan.text)],
      options: PLAN_OPTIONS,
    });
    if (chosen === null) return;
    await this.deps.agent.decisions
      .decidePlan(open.session.id, plan.plan_id, chosen === 'approve' ? 'approve' : 'reject')
      .catch(() => {});
  }

  /** `session/request_permission`: the option the user chose, or null (cancelled, or the turn ended). */
  private async ask(
    client: AgentContext,
    open: OpenSession,
    turn: Turn,
    ask: {
      toolCallId: string;
      title: string;
      content: ToolCallContent[];
      options: PermissionOption[];
    },
  ): Promise<string | null> {
    try {
      const res = await client.request(
        methods.client.session.requestPermission,
        {
          sessionId: open.session.id,
          toolCall: {
            toolCallId: ask.toolCallId,
            title: ask.title,
            status: 'pending',
            content: ask.content,
          },
          options: ask.options,
        },
        { cancellationSignal: turn.ended.signal, stopWaitingOnCancel: true },
      );
      if (res.outcome.outcome !== 'selected') return turn.cancelled ? null : 'reject_once';
      const id = res.outcome.optionId;
      if (!ask.options.some((o) => o.optionId === id)) return 'reject_once';
      return id;
    } catch {
      return null;
    }
  }
}

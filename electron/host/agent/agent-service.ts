import {
  CLEARED_SUMMARY,
  type SessionEventBody,
  type ThinkingWire,
} from '../../../shared/protocol/events';
import type { PermissionModeWire } from '../../../shared/protocol/common';
import type { AppConfig } from '../config/schema';
import { DisposableStore, toDisposable, type Disposable } from '../lifecycle/disposable';
import { ModelError } from '../models/model-error';
import type { ModelSettings } from '../models/model-settings';
import type { Session } from '../sessions/session';
import { checkSessionRoot, ForbiddenRootError, type RootLimits } from '../sessions/session-root';
import type { SessionManager } from '../sessions/session-manager';
import {
  newMessageId,
  type CompactResult,
  type SendOptions,
  type SessionRunner,
} from '../sessions/session-runner';
import type { ToolServices } from '../tools/services';
import { runAgent, startContextAt, summarizeContext, type CompactScope } from './agent-loop';
import { hasContextAfter } from './compaction';
import { LoopState } from './loop-state';
import { AgentDecisions } from './decisions';
import {
  closeRun,
  createRunContext,
  readStateFor,
  runWaits,
  type RunHandle,
  type SessionAgentState,
} from './create-run-context';

export type { SessionAgentState } from './create-run-context';
import type { ToolSource } from './run-context';
import {
  lastRunState,
  pendingApprovals,
  pendingPlans,
  sessionModel,
  unresolvedCalls,
} from './session-state';
import { repairOnOpen } from './settle-dangling';
import { closeOrphanedConnectionApprovals } from './network-approval';
import { LooseWaits } from './loose-waits';
import { closeOrphanedElicitations } from './elicitation-broker';
import { RunAborted } from './stop-reason';
import { Waiters } from './waiters';
import { promptHooks } from '../hooks/session-hooks';
import { policyRootOf } from '../remote/policy-root';
import { HostError } from '../rpc/host-error';
import { answerStart } from '../../../shared/protocol/rewinds';
import type { ClientCapability } from '../../../shared/protocol/capabilities';
import { AgentFailure } from '../acp/client/agent-failure';
import type { ExternalTurns } from '../acp/client/external-turns';

// The agent runtime behind sessions.send/stop/setMode: one run at a time per session, started by
// a user message (or by a decision that arrives when no run is live, e.g. after a restart). A new
// message while a run waits on the user supersedes the wait; one while the run works is picked up
// at its next step. Everything the run does is in the session log.

/** How long stop() waits for a run to wind down before returning (the run still ends on its own). */
const STOP_WAIT_MS = 10_000;

/** The summary `/clear` leaves: the root agent's context starts over from it. */
export { CLEARED_SUMMARY };
const COMPACT_BUSY = 'The agent is working: stop it or wait until it finishes, then compact.';
const COMPACT_PENDING =
  'The agent is waiting for a decision: answer it or stop the run, then compact.';
const NOTHING_TO_COMPACT = 'Nothing to compact yet.';
const COMPACT_STOPPED = 'Compacting was stopped; the context is as it was.';

export interface AgentServiceOptions {
  sessions: SessionManager;
  config: AppConfig;
  models: ModelSettings;
  /** The candidate tools of one run (built-ins, MCP, devices) and their deferral; one per run. */
  toolsForRun(session: Session): ToolSource;
  /** Host-wide services for tools (lsp, devices, ...). */
  services?: ToolServices;
  /** Working directories of sessions bound to no project live under here. */
  scratchDir: string;
  /** Snapshots of the project's files around turns that write (rewind). */
  checkpoints?: RunCheckpoints;
  /** Where no session may act (sessions/session-root.ts): checked before each run and step. */
  rootLimits: RootLimits;
  /** The turns of sessions bound to an external ACP agent (session.meta.agent). */
  external?: ExternalTurns;
}

export interface RunCheckpoints {
  beforeWrite(session: Session): Promise<void>;
  afterRun(session: Session): Promise<void>;
}

export interface AgentSendOptions extends SendOptions {
  /** A run with no UI (`mewbo run`, triggers): no questions, no device tools, approvals refused. */
  headless?: boolean;
  /** `provider:name` or a bare model name for this session's runs. */
  model?: string;
}

interface ActiveRun extends RunHandle {
  done: Promise<void>;
  /** The run's wait count (RunContext.beginWait), once its context is made. */
  beginWait?: (reason: string) => () => void;
}

export class AgentService implements SessionRunner, Disposable {
  private readonly states = new Map<string, SessionAgentState>();
  private readonly runs = new Map<string, ActiveRun>();
  /** Sessions whose `/compact` is summarizing now, and how Stop ends the summary. */
  private readonly compacting = new Map<string, AbortController>();
  /** The newest run of each session until its last event is written. */
  private readonly ending = new Map<string, Promise<void>>();
  private readonly subscriptions = new DisposableStore();
  /** Waits on the user that no call of a run made (beginWait), across runs. */
  private readonly looseWaits = new LooseWaits((id) => this.runs.get(id));
  readonly decisions: AgentDecisions;

  constructor(private readonly opts: AgentServiceOptions) {
    this.subscriptions.add(opts.sessions.onDidOpen((s) => void this.state(s)));
    this.subscriptions.add(
      opts.sessions.onWillDelete((s) => {
        this.runs.get(s.id)?.abort.abort(new RunAborted('shutdown'));
        this.states.delete(s.id);
        this.looseWaits.forget(s.id);
      }),
    );
    this.decisions = new AgentDecisions({
      sessions: opts.sessions,
      config: opts.config,
      state: (s) => this.state(s),
      resume: (s) => this.resumeIfIdle(s),
      rules: opts.services?.rules,
    });
  }

  /** This session's runtime state, created (with its repair) on first use. */
  state(session: Session): SessionAgentState {
    let st = this.states.get(session.id);
    if (!st) {
      st = {
        waits: {
          approvals: new Waiters(),
          questions: new Waiters(),
          plans: new Waiters(),
          elicitations: new Waiters(),
        },
        readStates: new Map(),
        capabilities: [],
        headless: false,
        clientServices: {},
        ready: Promise.resolve(),
      };
      this.states.set(session.id, st);
      // The session owns its agent state: closing it (idle, unviewed) or deleting it drops this.
      session.resources.add(
        toDisposable(() => {
          if (this.states.get(session.id) === st) this.states.delete(session.id);
        }),
      );
      st.ready = this.repair(session).catch((err) =>
        console.error(`[agent] repair of ${session.id} failed`, err),
      );
    }
    return st;
  }

  /** The conversation was rewound: what the agents read is no longer in their context. */
  forgetReads(session: Session): void {
    for (const rs of this.states.get(session.id)?.readStates.values() ?? []) rs.forgetReads();
  }

  isRunning(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  /** Resolves when the session's current run (if any) has ended. */
  async idle(sessionId: string): Promise<void> {
    // A failing run releases the session (so a new message can start the next run) before its
    // last events are written: wait for those too.
    await (this.runs.get(sessionId)?.done ?? this.ending.get(sessionId));
  }

  private async repair(session: Session): Promise<void> {
    if (this.runs.has(session.id)) return;
    await repairOnOpen(session);
    await closeOrphanedConnectionApprovals(session);
    await closeOrphanedElicitations(session);
    const last = lastRunState(session.events());
    if (last && (last.state === 'running' || last.state === 'waiting')) {
      const events = session.events();
      const pending = pendingApprovals(events).length + pendingPlans(events).length;
      await session.append(
        pending
          ? {
              type: 'run_state',
              state: 'waiting',
              reason: 'restored after a restart: waiting for a decision',
            }
          : {
              type: 'run_state',
              state: 'idle',
              reason: 'the run was interrupted (the app restarted)',
            },
      );
    }
  }

  async send(
    session: Session,
    text: string,
    opts: AgentSendOptions,
  ): Promise<{ message_id: string }> {
    // Before anything runs in the root (its hooks included): a root edited into the meta by hand
    // or brought by an imported log is refused here with the reason.
    checkSessionRoot(session.meta.root, this.opts.rootLimits);
    const st = this.state(session);
    await st.ready;
    st.capabilities = [...opts.capabilities];
    st.headless = opts.headless ?? false;
    st.clientServices = opts.clientServices ?? {};
    if (opts.model !== undefined) st.model = opts.model;
    const message_id = newMessageId();
    // A UserPromptSubmit hook that blocks drops the message: its card tells the user why.
    const remote = this.opts.services?.remote;
    if (!(await promptHooks({ rules: this.opts.services?.rules, remote, session, prompt: text })))
      return { message_id };
    // Before the message is written: an MCP prompt missing an argument, or refused by its server,
    // is the sender's error to fix, with nothing left half-sent. Other failures leave it as typed.
    // An external agent reads `/name` itself: it has its own commands.
    const expansion = session.meta.agent
      ? null
      : await this.opts.services?.commands
          ?.expand(text, await policyRootOf(remote, session.id, session.meta.root))
          .catch((err: unknown) => {
            if (err instanceof HostError) throw err;
            return null;
          });
    await session.append({
      type: 'user_message',
      text,
      message_id,
      ...(opts.images?.length ? { images: opts.images } : {}),
      ...(opts.mentions?.length ? { mentions: opts.mentions } : {}),
      ...(opts.via ? { via: opts.via } : {}),
      ...(opts.pastes?.length ? { pastes: opts.pastes } : {}),
    });
    if (expansion)
      await session.append({
        type: 'command_expanded',
        message_id,
        name: expansion.name,
        kind: expansion.kind,
        scope: expansion.scope,
        text: expansion.text,
      });
    if (this.runs.has(session.id)) {
      await this.decisions.supersedeWaits(session, st);
      return { message_id };
    }
    await this.decisions.supersedeLeftovers(session);
    if (!this.runs.has(session.id)) this.startRun(session, st);
    return { message_id };
  }

  async regenerate(
    session: Session,
    messageId: string,
    opts: { capabilities: ClientCapability[] },
  ): Promise<void> {
    checkSessionRoot(session.meta.root, this.opts.rootLimits);
    const st = this.state(session);
    await st.ready;
    if (this.runs.has(session.id) || this.compacting.has(session.id))
      throw new HostError('running', 'stop the run before regenerating its answer');
    const from = answerStart(session.events(), messageId);
    if (from === null)
      throw new HostError(
        'bad_regenerate',
        'only the answer to the latest message can be regenerated (rewind to go further back)',
      );
    st.capabilities = [...opts.capabilities];
    st.headless = false;
    st.clientServices = {};
    await this.decisions.supersedeLeftovers(session);
    await session.append({ type: 'regenerate', message_id: messageId, from_seq: from });
    if (!this.runs.has(session.id)) this.startRun(session, st);
  }

  async stop(session: Session): Promise<void> {
    // A `/compact` summary ends where it is; its caller answers that nothing changed.
    const summary = this.compacting.get(session.id);
    if (summary) {
      summary.abort();
      return;
    }
    const run = this.runs.get(session.id);
    if (run) {
      run.abort.abort(new RunAborted('stop'));
      await this.decisions.stopConnections(session);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([run.done, new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
      clearTimeout(timer);
      return;
    }
    await this.state(session).ready;
    await this.decisions.stopLeftovers(session);
    for (const call of unresolvedCalls(session.events())) {
      await session.append({
        type: 'tool_result',
        call_id: call.call_id,
        agent_id: call.agent_id,
        name: call.name,
        payload: {
          kind: 'error',
          code: 'stopped',
          message: 'The user stopped the run before this call finished.',
        },
      });
    }
    await session.append({ type: 'run_state', state: 'stopped', reason: 'stopped by the user' });
  }

  async setMode(session: Session, mode: PermissionModeWire): Promise<void> {
    await session.append({ type: 'mode_change', mode });
    if (session.meta.agent) await this.opts.external?.setMode(session);
  }

  async setModel(session: Session, model: string | null, thinking?: ThinkingWire): Promise<void> {
    await session.append({ type: 'model_change', model, ...(thinking ? { thinking } : {}) });
  }

  /**
   * `/compact`: the root agent's context is summarized now (as when it outgrows the window, the
   * latest turn included); `/clear`: it starts over empty, with no model call. The log keeps all.
   */
  async compact(session: Session, { clear }: { clear?: boolean }): Promise<CompactResult> {
    const st = this.state(session);
    await st.ready;
    if (this.runs.has(session.id) || this.compacting.has(session.id))
      return { compacted: false, message: COMPACT_BUSY };
    // Calls left open (a decision pending since a restart) would be cut off from their results.
    if (unresolvedCalls(session.events()).length)
      return { compacted: false, message: COMPACT_PENDING };
    const state = new LoopState(session);
    const scope = {
      session,
      state,
      append: (e: SessionEventBody) => session.append(e).then(() => undefined),
      servicesFor: (agentId: string) => ({ readState: readStateFor(st, agentId) }),
    };
    const events = session.events();
    if (!hasContextAfter(events, 'root', state.context('root').compaction()))
      return { compacted: false, message: NOTHING_TO_COMPACT };
    if (clear) {
      await startContextAt(scope, 'root', CLEARED_SUMMARY, events[events.length - 1]!.seq);
      return { compacted: true, message: null };
    }
    const stopped = new AbortController();
    this.compacting.set(session.id, stopped);
    try {
      const selection = await this.selectModel(session, st);
      if (!selection.ok) return { compacted: false, message: selection.message };
      // A run that started meanwhile compacts its own context as it needs.
      if (this.runs.has(session.id)) return { compacted: false, message: COMPACT_BUSY };
      const run: CompactScope = {
        ...scope,
        provider: selection.provider,
        signal: stopped.signal,
        config: this.opts.config,
      };
      const done = await summarizeContext(run, { id: 'root' }, true).catch((err: unknown) => {
        if (stopped.signal.aborted) return null;
        throw err;
      });
      if (done?.ok) return { compacted: true, message: null };
      if (!done || stopped.signal.aborted) return { compacted: false, message: COMPACT_STOPPED };
      return {
        compacted: false,
        message: done.why === 'nothing' ? NOTHING_TO_COMPACT : `Could not compact: ${done.reason}.`,
      };
    } finally {
      this.compacting.delete(session.id);
    }
  }

  /**
   * A short request to the session's own model beside its runs (a proposed commit message): no
   * tools, no thinking, nothing logged. Refused (`no_model`, `no_key`...) with the reason when none is set; a
   * model's failure is thrown as its ModelError.
   */
  async ask(
    session: Session,
    req: { system: string; prompt: string; maxTokens: number },
    signal: AbortSignal,
  ): Promise<string> {
    const st = this.state(session);
    await st.ready;
    const selection = await this.selectModel(session, st);
    if (!selection.ok) throw new HostError(selection.code, selection.message);
    const turn = await selection.provider.complete(
      {
        system: req.system,
        messages: [{ role: 'user', text: req.prompt }],
        tools: [],
        maxTokens: req.maxTokens,
        plain: true,
      },
      signal,
    );
    return turn.text;
  }

  /** The session's model: a `mewbo run` override, else its latest model_change, else the default. */
  private selectModel(session: Session, st: SessionAgentState) {
    const chosen = sessionModel(session.events());
    return this.opts.models.select(st.model ?? chosen?.model ?? undefined, {
      thinking: chosen?.thinking,
      onNotice: (notice) =>
        void session.append({ type: 'notice', ...notice }).catch((err: unknown) => {
          console.error('[agent] could not log a notice', err);
        }),
    });
  }

  /**
   * A wait on the user that no call of the run made (a connection of the session's shell waiting
   * for a new destination): LooseWaits shows the session `waiting` for as long as it lasts, with
   * or without a run.
   */
  beginWait(session: Session, reason: string): () => void {
    return this.looseWaits.begin(session, reason);
  }

  /** A decision or a late answer arrived and nothing runs: start a run that picks it up. */
  private resumeIfIdle(session: Session): void {
    if (!this.runs.has(session.id)) this.startRun(session, this.state(session));
  }

  private startRun(session: Session, st: SessionAgentState): void {
    const run: ActiveRun = { abort: new AbortController(), done: Promise.resolve(), waiting: 0 };
    this.runs.set(session.id, run);
    run.done = this.execute(session, st, run)
      .finally(() => this.looseWaits.runEnded(session, run))
      .then(() => this.opts.checkpoints?.afterRun(session))
      .catch((err) => console.error('[agent] checkpoint after the run failed', err))
      .finally(() => {
        if (this.runs.get(session.id) === run) this.runs.delete(session.id);
        if (this.ending.get(session.id) === run.done) this.ending.delete(session.id);
      });
    this.ending.set(session.id, run.done);
  }

  private async execute(session: Session, st: SessionAgentState, run: ActiveRun): Promise<void> {
    const append = (e: SessionEventBody) =>
      session.append(e).then(
        () => undefined,
        () => undefined,
      );
    const release = () => {
      if (this.runs.get(session.id) === run) this.runs.delete(session.id);
    };
    try {
      await session.append({ type: 'run_state', state: 'running' });
      if (session.meta.agent) {
        await this.executeExternal(session, st, run, release, append);
        return;
      }
      const selection = await this.selectModel(session, st);
      if (!selection.ok) {
        release();
        await append({ type: 'error', code: selection.code, message: selection.message });
        await append({ type: 'run_state', state: 'failed', reason: selection.message });
        return;
      }
      const ctx = await createRunContext({
        session,
        st,
        run,
        provider: selection.provider,
        config: this.opts.config,
        services: this.opts.services,
        tools: this.opts.toolsForRun(session),
        scratchDir: this.opts.scratchDir,
        checkRoot: (root) => checkSessionRoot(root, this.opts.rootLimits),
        release,
        beforeWrite: () => this.opts.checkpoints?.beforeWrite(session) ?? Promise.resolve(),
        afterWrites: () => this.opts.checkpoints?.afterRun(session) ?? Promise.resolve(),
      });
      run.beginWait = ctx.beginWait;
      this.looseWaits.runStarted(session);
      const outcome = await runAgent(ctx, {
        id: 'root',
        maxSteps: this.opts.config.agent.max_steps,
      });
      await run.closing;
      if (outcome.reason === 'step_limit') {
        release();
        const message = `The run stopped after ${outcome.steps} steps (agent.max_steps). Send a message to continue.`;
        await append({ type: 'error', code: 'step_limit', message });
        await append({ type: 'run_state', state: 'idle', reason: message });
      }
    } catch (err) {
      release();
      if (err instanceof RunAborted) {
        if (err.why === 'stop')
          await append({ type: 'run_state', state: 'stopped', reason: 'stopped by the user' });
        return;
      }
      const known =
        err instanceof ModelError ||
        err instanceof ForbiddenRootError ||
        err instanceof AgentFailure;
      const message = known
        ? err.message
        : `internal error: ${(err as Error)?.message ?? String(err)}`;
      if (!known) console.error('[agent] run failed', err);
      await append({ type: 'error', code: known ? err.code : 'internal', message });
      await append({ type: 'run_state', state: 'failed', reason: message });
    }
  }

  /** A turn of a session bound to an external ACP agent: the same run, its work done by the agent. */
  private async executeExternal(
    session: Session,
    st: SessionAgentState,
    run: ActiveRun,
    release: () => void,
    append: (e: SessionEventBody) => Promise<void>,
  ): Promise<void> {
    const external = this.opts.external;
    if (!external)
      throw new AgentFailure(
        `this host cannot run external agents (session bound to '${session.meta.agent}')`,
      );
    checkSessionRoot(session.meta.root, this.opts.rootLimits);
    const beginWait = runWaits(run, append);
    run.beginWait = beginWait;
    await external.run(session, {
      signal: run.abort.signal,
      headless: st.headless,
      waits: st.waits,
      beginWait,
      beforeWrite: () => this.opts.checkpoints?.beforeWrite(session) ?? Promise.resolve(),
      tryClose: (mark) => closeRun(session, run, release, append, mark),
    });
    await run.closing;
  }

  async dispose(): Promise<void> {
    await this.subscriptions.dispose();
    const runs = [...this.runs.values()];
    for (const run of runs) run.abort.abort(new RunAborted('shutdown'));
    await Promise.allSettled(runs.map((r) => r.done));
    this.runs.clear();
  }
}

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type {
  SessionEvent,
  SessionEventBody,
  SessionEventOf,
} from '../../../../shared/protocol/events';
import type { AppConfig, PermissionMode } from '../../config/schema';
import type { Disposable } from '../../lifecycle/disposable';
import { toDisposable } from '../../lifecycle/disposable';
import type { Session } from '../../sessions/session';
import type { ShellService } from '../../shells/shell-service';
import type { RulesService } from '../../rules/rules-service';
import type { JudgeScope } from '../../agent/dispatch';
import { createElicitationBroker } from '../../agent/elicitation-broker';
import { newApprovalId } from '../../agent/ids';
import { LoopState } from '../../agent/loop-state';
import type { SessionWaits } from '../../agent/run-context';
import { currentMode } from '../../agent/session-state';
import { abortReason } from '../../agent/stop-reason';
import { unifiedDiff } from '../../fs/unified-diff';
import { findAgent } from './agent-presets';
import type { AgentSandbox } from './agent-process';
import { AgentFailure } from './agent-failure';
import type { AgentGrants } from './client-judge';
import { CANCEL_GRACE_MS } from './constants';
import type { ExternalAgent } from './external-agent';
import { mcpServersOf } from './mcp-servers';
import {
  agentModeFor,
  appModeFor,
  configRequest,
  modesEvent,
  optionsEvent,
  wantedAgentMode,
} from './agent-settings';
import { UpdateLog } from './update-log';

// The turns of a session bound to an external ACP agent (`sessions.create {agent}`, `mewbo run
// --agent NAME`), run behind the AgentService like its own agent's (issue 30): the user's
// messages become session/prompt, Stop becomes session/cancel (the turn ends within
// CANCEL_GRACE_MS whether the agent answers or not), the mode select becomes session/set_mode
// (the agent's own modes, or the app's matched to them), its settings session/set_config_option,
// the agent's updates and approvals go to the session's log. One agent process per open session,
// started at its first turn and ended with the session; a process that died is started again at
// the next turn and resumes its ACP session where the agent supports session/load.

export interface ExternalTurnsOptions {
  config: () => AppConfig;
  env: NodeJS.ProcessEnv;
  sandbox: AgentSandbox;
  shells: ShellService;
  /** The user's permission rules and hooks, which judge the agent's file and terminal calls. */
  rules?: RulesService;
  /** Working directories of sessions bound to no project. */
  scratchDir: string;
}

/** What the AgentService's run gives a turn: its signal, its waits, its close. */
export interface ExternalRun {
  signal: AbortSignal;
  headless: boolean;
  waits: SessionWaits;
  beginWait(reason: string): () => void;
  beforeWrite(): Promise<void>;
  /** Called synchronously when nothing is left to do; false means new input came. */
  tryClose(sinceSeq: number): boolean;
}

interface Hosted {
  agent: ExternalAgent;
  updates: UpdateLog;
  /** The turn running now, for the agent's permission requests. */
  turn: ExternalRun | null;
  /** The agent's requests the user allowed this turn (each carries out one client call). */
  grants: AgentGrants;
}

const runEnds = new Set(['idle', 'stopped', 'failed']);

/** The user messages of the turn to come: those after the previous run ended. */
export function unsentMessages(
  events: readonly SessionEvent[],
  since?: number,
): SessionEventOf<'user_message'>[] {
  let from = since ?? 0;
  if (since === undefined)
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === 'run_state' && runEnds.has(e.state)) {
        from = e.seq + 1;
        break;
      }
    }
  return events.filter(
    (e): e is SessionEventOf<'user_message'> => e.type === 'user_message' && e.seq >= from,
  );
}

export class ExternalTurns implements Disposable {
  private readonly hosted = new Map<string, Hosted>();
  /** Agents starting, by session: a turn and a mode change at once start one, not two. */
  private readonly starting = new Map<string, Promise<Hosted>>();

  constructor(private readonly opts: ExternalTurnsOptions) {}

  /** Runs the session's pending messages as prompt turns until none is left; throws RunAborted on Stop. */
  async run(session: Session, run: ExternalRun): Promise<void> {
    const h = await this.connect(session, run);
    h.turn = run;
    try {
      await this.syncMode(session, h);
      let messages = unsentMessages(session.events());
      for (;;) {
        const mark = session.length;
        await run.beforeWrite();
        h.updates.beginTurn();
        h.grants.clear();
        const stop = await this.promptTurn(h, this.blocks(session, h.agent, messages), run.signal);
        await h.updates.endTurn(false);
        if (stop !== 'end_turn' && stop !== 'cancelled')
          await session.append({ type: 'error', code: stop, message: STOP_TEXT[stop] });
        if (run.tryClose(mark)) return;
        messages = unsentMessages(session.events(), mark);
      }
    } finally {
      h.turn = null;
    }
  }

  private async promptTurn(
    h: Hosted,
    blocks: acp.ContentBlock[],
    signal: AbortSignal,
  ): Promise<acp.StopReason> {
    const turn = h.agent.prompt(blocks, signal);
    const stopped = new Promise<'stopped'>((resolve) => {
      if (signal.aborted) resolve('stopped');
      signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
    try {
      const first = await Promise.race([turn, stopped]);
      if (first !== 'stopped') return first;
      // Stop: the agent was sent session/cancel; its answer is waited for a moment, no longer.
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        turn.then(
          () => true,
          () => true,
        ),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), CANCEL_GRACE_MS))),
      ]);
      clearTimeout(timer);
      await h.updates.endTurn(true);
      // An agent that ignores a cancel would still be working when the next message comes: it is
      // closed, and the next turn starts it again (resuming its session where it can).
      if (!answered) await this.drop(h);
      throw abortReason(signal)!;
    } catch (err) {
      if (err instanceof AgentFailure) {
        await h.updates.endTurn(signal.aborted);
        await this.drop(h);
      }
      throw err;
    }
  }

  /**
   * Puts the agent in the mode the log says (the user's last choice in either select) and logs
   * the change; false when it was in that mode already (or could not change).
   */
  private async syncMode(session: Session, h: Hosted): Promise<boolean> {
    const modes = h.agent.modes;
    if (!modes) return false;
    const offered = modes.availableModes.map((m) => m.id);
    const id =
      wantedAgentMode(session.events(), offered) ??
      agentModeFor(currentMode(session.events(), this.opts.config().permission_mode), offered);
    if (!id || id === modes.currentModeId) return false;
    const changed = await h.agent.setMode(id).then(
      () => true,
      () => false,
    );
    if (changed) await this.logModes(session, h);
    return changed;
  }

  /** The app's mode select changed: the agent hears it now if it runs. */
  async setMode(session: Session): Promise<void> {
    const h = this.hosted.get(session.id);
    if (h) await this.syncMode(session, h);
  }

  /**
   * The agent's own mode, picked in the header's select: sent with session/set_mode (the agent
   * is started for it if it is not running), and the app's permission mode follows where the
   * agent's mode is one of the app's.
   */
  async setAgentMode(session: Session, modeId: string): Promise<void> {
    const h = await this.connect(session);
    const modes = h.agent.modes;
    if (!modes?.availableModes.some((m) => m.id === modeId))
      throw new AgentFailure(
        `the agent '${session.meta.agent}' has no mode '${modeId}'; its modes: ${modes?.availableModes.map((m) => m.id).join(', ') || 'none'}`,
      );
    await h.agent.setMode(modeId).catch((err: unknown) => {
      throw new AgentFailure(
        `the agent '${session.meta.agent}' refused the mode '${modeId}': ${(err as Error).message}`,
      );
    });
    const mode = appModeFor(modeId);
    if (mode && mode !== currentMode(session.events(), this.opts.config().permission_mode))
      await session.append({ type: 'mode_change', mode });
    await this.logModes(session, h);
  }

  /** One of the agent's session settings, changed in the header: session/set_config_option. */
  async setAgentOption(session: Session, configId: string, value: string | boolean): Promise<void> {
    const h = await this.connect(session);
    const req = configRequest(h.agent.configOptions, configId, value);
    if ('error' in req) throw new AgentFailure(req.error);
    const options = await h.agent
      .setConfigOption(req.ok.configId, req.ok.value)
      .catch((err: unknown) => {
        throw new AgentFailure(
          `the agent '${session.meta.agent}' refused the setting '${configId}': ${(err as Error).message}`,
        );
      });
    await h.updates.enqueue(() => session.append(optionsEvent(options)).then(() => undefined));
  }

  /** The agent's modes as they are now, in the log (after the updates queued before). */
  private logModes(session: Session, h: Hosted): Promise<void> {
    const modes = h.agent.modes;
    return modes
      ? h.updates.enqueue(() => session.append(modesEvent(modes)).then(() => undefined))
      : Promise.resolve();
  }

  private blocks(
    session: Session,
    agent: ExternalAgent,
    messages: SessionEventOf<'user_message'>[],
  ): acp.ContentBlock[] {
    const caps = agent.promptCapabilities;
    const root = this.rootOf(session);
    const out: acp.ContentBlock[] = [];
    for (const m of messages) {
      const pastes = (m.pastes ?? []).map((p) => p.text).join('\n\n');
      out.push({ type: 'text', text: pastes ? `${m.text}\n\n${pastes}` : m.text });
      for (const img of m.images ?? [])
        out.push(
          caps.image
            ? { type: 'image', data: img.data, mimeType: img.media_type }
            : {
                type: 'text',
                text: `[an image${img.name ? ` (${img.name})` : ''} was left out: this agent takes no images]`,
              },
        );
      for (const f of m.mentions ?? []) {
        const uri = pathToFileURL(join(root, f.path)).href;
        out.push(
          caps.embeddedContext
            ? { type: 'resource', resource: { uri, text: f.text, mimeType: 'text/plain' } }
            : { type: 'resource_link', uri, name: f.path },
        );
      }
    }
    return out;
  }

  private rootOf(session: Session): string {
    return session.meta.root ?? join(this.opts.scratchDir, session.id);
  }

  /** The session's agent, started if it is not running; `run`: the turn that may ask the user. */
  private connect(session: Session, run?: ExternalRun): Promise<Hosted> {
    const live = this.hosted.get(session.id);
    if (live) return Promise.resolve(live);
    let started = this.starting.get(session.id);
    if (!started) {
      started = this.start(session, run).finally(() => this.starting.delete(session.id));
      this.starting.set(session.id, started);
    }
    return started;
  }

  private async start(session: Session, run?: ExternalRun): Promise<Hosted> {
    const name = session.meta.agent!;
    const config = this.opts.config();
    const found = findAgent(config, this.opts.env, name);
    if ('error' in found) throw new AgentFailure(found.error);
    const root = this.rootOf(session);
    const append = (e: SessionEventBody) => session.append(e).then(() => undefined);
    const holder: { h?: Hosted } = {};
    // Loaded at an external agent's first turn: they load the ACP SDK, which builds its schemas
    // as it loads, 2.75 MiB of heap an idle host held for an agent most users never run.
    const [{ AgentGrants, clientJudge }, { ClientTerminals }, { ExternalAgent }] =
      await Promise.all([
        import('./client-judge'),
        import('./client-terminals'),
        import('./external-agent'),
      ]);
    const grants = new AgentGrants(root);
    const state = new LoopState(session);
    const judge = clientJudge({
      root,
      grants,
      scope: () => {
        const run = holder.h?.turn;
        return run ? this.judgeScope(session, state, run) : null;
      },
    });
    const terminals = new ClientTerminals({
      shells: this.opts.shells,
      sessionId: session.id,
      root,
      config: this.opts.config,
      judge,
      append,
    });
    const updates = new UpdateLog({
      append,
      emitTransient: (e) => session.emitTransient(e),
      root,
      terminal: (id) => terminals.describe(id),
      modes: () => holder.h?.agent.modes ?? null,
      namedByUser: () =>
        session.events().some((e) => e.type === 'session_renamed' && e.by === undefined),
    });
    const resume = lastAgentSession(session.events(), name);
    const agent = await ExternalAgent.open({
      name,
      agent: found.config,
      root,
      appEnv: this.opts.env,
      sandbox: this.opts.sandbox,
      mcpServers: mcpServersOf(config),
      resume,
      files: {
        root,
        judge,
        beforeWrite: () => holder.h?.turn?.beforeWrite() ?? Promise.resolve(),
      },
      terminals,
      updates,
      permission: (req) => this.permission(session, holder.h, req),
      chooseAuth: (methods) => this.chooseAuth(session, name, methods, holder.h?.turn ?? run),
    });
    const h: Hosted = { agent, updates, turn: null, grants };
    holder.h = h;
    this.hosted.set(session.id, h);
    session.resources.add(toDisposable(() => this.drop(h)));
    if (agent.lostHistory)
      await append({
        type: 'notice',
        code: 'agent_not_resumed',
        message: `The agent '${name}' could not resume its earlier session: it starts a new one and does not remember the turns above.`,
      });
    if (agent.sessionId !== resume)
      await append({ type: 'agent_session', agent: name, session_id: agent.sessionId });
    // A new process starts in its default mode: the one the user chose before is set again.
    if (!(await this.syncMode(session, h))) await this.logModes(session, h);
    if (agent.configOptions) await append(optionsEvent(agent.configOptions));
    return h;
  }

  /** What judging the agent's client calls reads of the running turn (agent/dispatch.ts judgeCall). */
  private judgeScope(session: Session, state: LoopState, run: ExternalRun): JudgeScope {
    const rules = this.opts.rules;
    return {
      session,
      state,
      config: this.opts.config(),
      headless: run.headless,
      signal: run.signal,
      waits: run.waits,
      beginWait: run.beginWait,
      append: (e) => session.append(e).then(() => undefined),
      servicesFor: () => (rules ? { rules } : {}),
    };
  }

  private async drop(h: Hosted): Promise<void> {
    for (const [id, x] of this.hosted) if (x === h) this.hosted.delete(id);
    await h.agent.dispose();
  }

  /**
   * The agent asks the user to sign in and offers several ways: a card (an elicitation the agent
   * asks, answered like an MCP server's, from the desktop or a phone) listing each method's name
   * and description. The method picked; null: declined; undefined: nobody to ask.
   */
  private async chooseAuth(
    session: Session,
    name: string,
    methods: acp.AuthMethod[],
    run: ExternalRun | null | undefined,
  ): Promise<string | null | undefined> {
    if (!run || run.headless) return undefined;
    const asker = createElicitationBroker(session, run.waits.elicitations, run.beginWait);
    const answer = await asker.ask(
      {
        server: name,
        asker: 'agent',
        callId: '',
        mode: 'form',
        message: `The agent '${name}' works only signed in. Choose how to sign in to it:`,
        form: {
          fields: [
            {
              kind: 'choice',
              name: 'method',
              title: 'Sign in with',
              required: true,
              options: methods.map((m) => ({
                value: m.id,
                label: m.description ? `${m.name}: ${m.description}` : m.name,
              })),
            },
          ],
        },
      },
      run.signal,
    );
    return answer.action === 'accept' && typeof answer.content?.method === 'string'
      ? answer.content.method
      : null;
  }

  /** session/request_permission: the approval card with the agent's options, or the mode's answer. */
  private async permission(
    session: Session,
    h: Hosted | undefined,
    req: acp.RequestPermissionRequest,
  ): Promise<acp.RequestPermissionResponse> {
    const cancelled = { outcome: { outcome: 'cancelled' as const } };
    const run = h?.turn;
    if (!h || !run || run.signal.aborted) return cancelled;
    const options = req.options.map((o) => ({ id: o.optionId, name: o.name, kind: o.kind }));
    const pick = (allow: boolean) =>
      options.find((o) => o.kind === (allow ? 'allow_once' : 'reject_once')) ??
      options.find((o) => o.kind.startsWith(allow ? 'allow' : 'reject'));
    const approval_id = newApprovalId();
    const title = req.toolCall.title ?? 'The agent asks for permission';
    await h.updates.enqueue(() =>
      session
        .append({
          type: 'approval_request',
          approval_id,
          call_id: req.toolCall.toolCallId,
          tool: title,
          summary: title,
          detail: approvalDetail(req.toolCall, this.rootOf(session)),
          options,
        })
        .then(() => undefined),
    );
    const mode = currentMode(session.events(), this.opts.config().permission_mode);
    const byMode = modeAllows(mode, req.toolCall.kind);
    if (byMode || run.headless) {
      const option = pick(byMode);
      await session.append({
        type: 'approval_decision',
        approval_id,
        decision: byMode ? 'allow' : 'deny',
        by: 'policy',
        reason: byMode
          ? `allowed by the ${mode} mode`
          : 'this headless run has nobody to approve it',
        ...(option ? { option: option.id } : {}),
      });
      return option ? { outcome: { outcome: 'selected', optionId: option.id } } : cancelled;
    }
    const end = run.beginWait('waiting for your approval');
    try {
      const verdict = await run.waits.approvals.wait(approval_id, run.signal);
      if (verdict.allow) h.grants.add(req.toolCall);
      const option = verdict.option ?? pick(verdict.allow)?.id;
      return option ? { outcome: { outcome: 'selected', optionId: option } } : cancelled;
    } catch {
      return cancelled;
    } finally {
      end();
    }
  }

  async dispose(): Promise<void> {
    const all = [...this.hosted.values()];
    await Promise.all(all.map((h) => this.drop(h)));
  }
}

const STOP_TEXT: Record<Exclude<acp.StopReason, 'end_turn' | 'cancelled'>, string> = {
  max_tokens:
    'The agent reached its output limit (max_tokens) and stopped; send a message to continue.',
  max_turn_requests:
    'The agent reached its limit of requests in one turn and stopped; send a message to continue.',
  refusal: 'The agent declined to continue this request (stop reason: refusal).',
};

/** What the app's mode decides without asking: auto allows all, accept-edits allows edits. */
function modeAllows(mode: PermissionMode, kind: acp.ToolKind | null | undefined): boolean {
  if (mode === 'auto') return true;
  return mode === 'accept-edits' && (kind === 'edit' || kind === 'delete' || kind === 'move');
}

/** What the user must see in full before deciding: the diff, else the call's input. */
function approvalDetail(call: acp.ToolCallUpdate, root: string): string {
  const diffs = (call.content ?? []).flatMap((c) =>
    c.type === 'diff'
      ? [
          unifiedDiff(c.oldText ?? '', c.newText, {
            path: c.path.startsWith(root + '/') ? c.path.slice(root.length + 1) : c.path,
            created: c.oldText == null,
          }).text,
        ]
      : [],
  );
  if (diffs.length) return diffs.join('');
  if (call.rawInput !== undefined) return JSON.stringify(call.rawInput, null, 2);
  return call.title ?? '';
}

function lastAgentSession(events: readonly SessionEvent[], name: string): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'agent_session' && e.agent === name) return e.session_id;
  }
  return undefined;
}

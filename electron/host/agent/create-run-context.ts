import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { AppConfig } from '../config/schema';
import type { ModelProvider } from '../models/types';
import type { Session } from '../sessions/session';
import { ReadState } from '../tools/read-state';
import type { ClientServices, ToolServices } from '../tools/services';
import { LoopState } from './loop-state';
import { createQuestionBroker } from './question-broker';
import { createElicitationBroker } from './elicitation-broker';
import type { RunContext, SessionWaits, ToolSource } from './run-context';
import { latestPanel } from './session-state';

// Builds what one run shares (RunContext) from the session's runtime state: the services per
// agent, the wait bookkeeping behind run_state `waiting`, and the synchronous close that keeps a
// finishing run and a new message from missing each other.

export interface SessionAgentState {
  waits: SessionWaits;
  /** read_file's memory per agent: a sub-agent's context does not hold what the root read. */
  readStates: Map<string, ReadState>;
  capabilities: ClientCapability[];
  headless: boolean;
  /** Services of the client that sent the latest message (an ACP editor's files). */
  clientServices: ClientServices;
  model?: string;
  /** Repair of what a previous process left (dangling calls, a stale run state). */
  ready: Promise<void>;
}

export interface RunHandle {
  abort: AbortController;
  /** Open waits on the user. */
  waiting: number;
  /** The final run_state append, issued synchronously at close so no later run can precede it. */
  closing?: Promise<void>;
}

export interface CreateRunContextInput {
  session: Session;
  st: SessionAgentState;
  run: RunHandle;
  provider: ModelProvider;
  config: AppConfig;
  services?: ToolServices;
  tools: ToolSource;
  scratchDir: string;
  /** Throws (ForbiddenRootError) for a root no session may act in; asked at each step. */
  checkRoot(root: string): void;
  /** Forgets the run as the session's live one (synchronously). */
  release(): void;
  /** Before a call that may write, and when the turn ends (the turn's checkpoints). */
  beforeWrite?(): Promise<void>;
  afterWrites?(): Promise<void>;
}

export function newInputSince(session: Session, seq: number): boolean {
  return session
    .events(seq)
    .some(
      (e) => e.type === 'user_message' || (e.type === 'question_answer' && e.delivery === 'late'),
    );
}

/** read_file's memory of one agent of the session (kept across runs). */
export function readStateFor(st: SessionAgentState, agentId: string): ReadState {
  let rs = st.readStates.get(agentId);
  if (!rs) st.readStates.set(agentId, (rs = new ReadState({ dedup: true })));
  return rs;
}

/** Counts a run's waits on the user: the run shows `waiting` while any is open. */
export function runWaits(
  run: RunHandle,
  append: (e: SessionEventBody) => Promise<void>,
): (reason: string) => () => void {
  return (reason: string) => {
    run.waiting++;
    if (run.waiting === 1)
      void append({ type: 'run_state', state: 'waiting', reason }).catch(() => {});
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      run.waiting--;
      if (run.waiting === 0 && !run.abort.signal.aborted) {
        void append({ type: 'run_state', state: 'running' }).catch(() => {});
      }
    };
  };
}

/**
 * The root agent has nothing left to do: unless new input came since `mark`, the run is released
 * and its final run_state issued synchronously (so no later run can precede it); false otherwise.
 */
export function closeRun(
  session: Session,
  run: RunHandle,
  release: () => void,
  append: (e: SessionEventBody) => Promise<void>,
  mark: number,
): boolean {
  if (newInputSince(session, mark)) return false;
  release();
  run.closing = append({ type: 'run_state', state: 'idle', reason: 'finished' }).catch(() => {});
  return true;
}

export async function createRunContext(i: CreateRunContextInput): Promise<RunContext> {
  const { session, st, run } = i;
  const scratch = join(i.scratchDir, session.id);
  if (!session.meta.root) await mkdir(scratch, { recursive: true });
  const services = new Map<string, ToolServices>();
  const append = (e: SessionEventBody) => session.append(e).then(() => undefined);
  const beginWait = runWaits(run, append);
  const broker = createQuestionBroker(session, st.waits.questions, beginWait);
  const elicitation = createElicitationBroker(session, st.waits.elicitations, beginWait);
  const panels = {
    latest(uiId: string) {
      const e = latestPanel(session.events(), uiId);
      return e ? { root: (e.spec as { root: unknown[] }).root, summary: e.summary } : undefined;
    },
  };
  const memo = { results: new WeakMap<object, string>(), schemas: new WeakMap() };
  return {
    session,
    memo,
    state: new LoopState(session, { rendered: memo.results }),
    config: i.config,
    provider: i.provider,
    signal: run.abort.signal,
    headless: st.headless,
    capabilities: st.capabilities,
    waits: st.waits,
    tools: i.tools,
    servicesFor: (agentId) => {
      let s = services.get(agentId);
      if (!s) {
        s = {
          ...i.services,
          ...st.clientServices,
          readState: readStateFor(st, agentId),
          panels,
          ...(agentId === 'root' && !st.headless ? { questions: broker } : {}),
          // An MCP server asks the user whichever agent made its call; a headless run declines.
          ...(!st.headless ? { elicitation } : {}),
        };
        services.set(agentId, s);
      }
      return s;
    },
    currentRoot: () => {
      const root = session.meta.root;
      if (!root) return { root: scratch, hasProject: false };
      i.checkRoot(root);
      return { root, hasProject: true };
    },
    append,
    beginWait,
    beforeWrite: i.beforeWrite ?? (() => Promise.resolve()),
    afterWrites: i.afterWrites ?? (() => Promise.resolve()),
    tryClose: (mark) => closeRun(session, run, i.release, append, mark),
  };
}

import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { AppConfig } from '../config/schema';
import type { ModelProvider } from '../models/types';
import type { Session } from '../sessions/session';
import type { AnyTool } from '../tools/tool';
import type { ToolServices } from '../tools/services';
import type { QuestionAnswer } from './interaction';
import type { LoopState } from './loop-state';
import type { Waiters } from './waiters';
import type { ElicitationAnswer } from '../mcp/elicitation';

// Everything one run shares between its root agent and its sub-agents: the session, the model,
// the signal, how the client can interact, the host's services, and the waits on the user.

/** `option`: which of an external agent's own choices the user picked (approval_request.options). */
export type ApprovalVerdict =
  | { allow: true; option?: string }
  | { allow: false; reason: string; by: 'user' | 'policy'; option?: string };
export type PlanVerdict = { decision: 'approve' | 'reject' | 'superseded'; feedback?: string };
export type QuestionVerdict =
  { status: 'answered'; answer: QuestionAnswer } | { status: 'superseded' };

/** The user's pending decisions of one session; decision commands resolve them. */
export interface SessionWaits {
  approvals: Waiters<ApprovalVerdict>;
  questions: Waiters<QuestionVerdict>;
  plans: Waiters<PlanVerdict>;
  /** MCP servers' elicitations, resolved with what the server is answered. */
  elicitations: Waiters<ElicitationAnswer>;
}

export interface AgentSpec {
  /** "root" or a sub-agent id. */
  id: string;
  /** A sub-agent's task (its first message); the root agent's input is the log. */
  task?: string;
  /** A sub-agent's narrowed tool names. */
  allowedTools?: string[];
  maxSteps: number;
  /** A sub-agent keeps the directory it started in; the root follows the session's project. */
  fixedRoot?: string;
}

export interface ToolSourceInput {
  session: Session;
  agent: AgentSpec;
  root: string;
  headless: boolean;
}

/** Where candidate tools come from (built-ins, MCP, devices); binding then filters them. */
export interface ToolSource {
  candidates(input: ToolSourceInput): Promise<AnyTool[]>;
  /** tool_search deferral over what survived binding; absent: every granted tool is bound. */
  defer?(
    granted: AnyTool[],
    input: ToolSourceInput & { contextWindow: number; fetchedNames: Iterable<string> },
  ): { bound: AnyTool[]; deferredNames: string[] };
}

/** Per-run memo of what is rebuilt every step but never changes: a logged result's text, a tool's schema. */
export interface RunMemo {
  results: WeakMap<object, string>;
  schemas: WeakMap<AnyTool, Record<string, unknown>>;
}

export interface RunContext {
  session: Session;
  memo: RunMemo;
  /** The mode and each agent's context, kept up to date with the session's log. */
  state: LoopState;
  config: AppConfig;
  provider: ModelProvider;
  signal: AbortSignal;
  headless: boolean;
  capabilities: readonly ClientCapability[];
  /** Host services plus this session's and this agent's own (readState per agent, questions, panels). */
  servicesFor(agentId: string): ToolServices;
  waits: SessionWaits;
  tools: ToolSource;
  /** The session's working directory now (its project root, or a scratch directory). */
  currentRoot(): { root: string; hasProject: boolean };
  append(event: SessionEventBody): Promise<void>;
  /** Before a call that may write: snapshots the project's files once per turn (rewind). */
  beforeWrite(): Promise<void>;
  /** When the root agent is about to finish: snapshots the files again if anything wrote. */
  afterWrites(): Promise<void>;
  /** Counts waits on the user: the run shows `waiting` while any is open. */
  beginWait(reason: string): () => void;
  /** Called synchronously when the root agent has nothing left to do; false means new input came. */
  tryClose(sinceSeq: number): boolean;
}

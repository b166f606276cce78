import type { ApprovalOption, ImageWire, SessionEventOf } from '../../../shared/protocol/events';
import type { ToolPayload } from '../../../shared/tools/payload';
import type { PastedText } from '../../../shared/attachments/pasted-text';
import type { ElicitForm } from '../../../shared/mcp/elicitation-form';

// What the conversation timeline draws: a projection of the session log where related events are
// merged into one item (a tool call and its result, a question and its answer, a panel and its
// replacements). Items are immutable: an update replaces the object, so memoized rows re-render
// only when their own item changed.

type Q = SessionEventOf<'question'>;

interface Base {
  /** Stable across updates: React key and virtualizer key. */
  key: string;
  seq: number;
  ts: number;
  /** Hidden from the conversation by a rewind in force (drawn dimmed and folded). */
  rewound?: boolean;
  /** Part of answer version `n` of a regenerated turn (the turn: the seq its answers start at). */
  version?: { turn: number; n: number };
  /** Part of an answer version other than the one shown (the person flips between them). */
  otherVersion?: boolean;
}

export interface UserItem extends Base {
  kind: 'user';
  /** What Regenerate names to make this message's answer again. */
  messageId: string;
  text: string;
  /** Files the message named with `@path` that were attached (note: why cut or left out). */
  mentions?: Array<{ path: string; note?: string }>;
  images?: ImageWire[];
  /** Long pastes sent as chips: shown as chips again, openable. */
  pastes?: PastedText[];
}

export interface AssistantItem extends Base {
  kind: 'assistant';
  text: string;
  agentId: string;
  thinking?: string;
  /** The user stopped the run while this answer streamed: it is what had arrived by then. */
  stopped?: boolean;
}

export interface ToolItem extends Base {
  kind: 'tool';
  callId: string;
  name: string;
  agentId: string;
  args: unknown;
  result?: ToolPayload;
  /** When the result landed (ms since epoch). */
  endedTs?: number;
  /** The call waits for the person's decision on its approval card (it has not started). */
  awaitingApproval?: boolean;
}

export type QuestionState = 'pending' | 'answered' | 'expired' | 'superseded';

export interface QuestionItem extends Base {
  kind: 'question';
  questionId: string;
  questions: Q['questions'];
  notesPlaceholder?: string;
  timeoutSeconds?: number;
  state: QuestionState;
  answer?: SessionEventOf<'question_answer'>['answer'];
  delivery?: 'in_place' | 'late';
}

/** An MCP server asks the person during its tool call: a form, or a page to open (url mode). */
export interface ElicitationItem extends Base {
  kind: 'elicitation';
  elicitationId: string;
  /** The server's name: the one asking (or an external agent's). */
  server: string;
  asker?: 'agent';
  message: string;
  mode: 'form' | 'url';
  form?: ElicitForm;
  url?: string;
  answer?: Omit<SessionEventOf<'elicitation_answer'>, 'type' | 'seq' | 'ts' | 'elicitation_id'>;
}

export interface ApprovalItem extends Base {
  kind: 'approval';
  approvalId: string;
  callId: string;
  tool: string;
  summary: string;
  detail: string;
  /** The rule "Always allow" would add (none when no single rule would be safe). */
  suggestedRule?: string;
  /** An external agent's own choices (ACP session/request_permission): its buttons instead of Approve / Deny. */
  options?: ApprovalOption[];
  decision?: {
    decision: 'allow' | 'deny';
    by: 'user' | 'policy';
    reason?: string;
    always?: { rule: string; scope: 'session' | 'project' | 'user' };
    /** Which of `options` was picked. */
    option?: string;
    /** The paired phone it was decided on, by name. */
    via?: string;
  };
}

export interface PlanItem extends Base {
  kind: 'plan';
  planId: string;
  text: string;
  decision?: { decision: 'approve' | 'reject'; feedback?: string };
}

export interface PanelItem extends Base {
  kind: 'panel';
  uiId: string;
  spec: unknown;
  summary: string;
  text: string;
}

export interface ProjectSwitchItem extends Base {
  kind: 'project_switch';
  from: string | null;
  to: string;
  root: string;
}

export interface ErrorItem extends Base {
  kind: 'error';
  message: string;
  code?: string;
}

export interface NoticeItem extends Base {
  kind: 'notice';
  text: string;
  tone: 'neutral' | 'warning' | 'danger';
}

export interface DeviceCallItem extends Base {
  kind: 'device_call';
  callId: string;
  deviceId: string;
  toolId: string;
  args: unknown;
  result?: SessionEventOf<'device_tool_result'>;
}

/** One run of a user's hook (issue 20). */
export interface HookItem extends Base {
  kind: 'hook';
  event: string;
  command: string;
  scope: 'user' | 'project';
  toolName?: string;
  outcome: 'ok' | 'blocked' | 'failed' | 'timeout';
  exitCode: number | null;
  durationMs: number;
  stdout: string;
  stderr: string;
}

export interface DiagnosticsItem extends Base {
  kind: 'diagnostics';
  file: string;
  text: string;
  /** How many of the problems are errors and warnings (absent in logs written before counts). */
  errors?: number;
  warnings?: number;
}

export interface RewindItem extends Base {
  kind: 'rewind';
  mode: 'both' | 'files' | 'conversation';
  restored: number;
  created: number;
  deleted: number;
  kept: string[];
  notStored: string[];
  /** A later rewind event undid this one. */
  undone: boolean;
}

export interface ForkItem extends Base {
  kind: 'fork';
  fromSession: string;
}

export type TimelineItem =
  | RewindItem
  | ForkItem
  | UserItem
  | AssistantItem
  | ToolItem
  | QuestionItem
  | ElicitationItem
  | ApprovalItem
  | HookItem
  | PlanItem
  | PanelItem
  | ProjectSwitchItem
  | ErrorItem
  | NoticeItem
  | DeviceCallItem
  | DiagnosticsItem;

export type TodoStatus = 'pending' | 'in_progress' | 'completed';
export interface TodoItem {
  label: string;
  status: TodoStatus;
}

export interface ShellInfo {
  shellId: string;
  command: string;
  cwd: string;
  state: 'running' | 'exited';
  exitCode: number | null;
  signal: string | null;
  startedTs: number;
  endedTs?: number;
}

export type RunState = SessionEventOf<'run_state'>['state'];

/** What the last answer of a turn offers: Regenerate (the latest turn only) and its versions. */
export interface AnswerInfo {
  /** The user message to regenerate the answer to; null: not the latest turn. */
  regenerate: string | null;
  /** The turn's versions, when it was regenerated: the one shown (0-based) of `count`. */
  versions: { turn: number; shown: number; count: number } | null;
}

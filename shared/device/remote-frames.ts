// zod/mini, like frames.ts: the phone page bundles these schemas.
import * as z from 'zod/mini';
import { ELICIT_MAX_TEXT_CHARS, elicitFormSchema } from '../mcp/elicitation-form';

// The remote frames of the device protocol, version 1 (PROTOCOL.md "Remote frames"): what a
// phone with the remote right may ask (sessions, waiting items, decide, answer, read, a short
// message) and what the desktop answers and pushes. Nothing here reaches files, shells or
// settings; a request type not in REMOTE_REQUEST_TYPES does not exist.

/** The remote protocol versions this desktop speaks (`welcome.remote_versions`). */
export const REMOTE_VERSIONS = [1] as const;

/** A phone's request id, echoed in the reply. */
export const MAX_REQ_ID_CHARS = 64;
/** A remote message to a session: short, the desktop is where long prompts are written. */
export const MAX_REMOTE_MESSAGE_CHARS = 2000;
/** A deny reason or a free-text answer read by the agent. */
export const MAX_REMOTE_REASON_CHARS = 2000;
export const MAX_REMOTE_ANSWER_CHARS = 4000;
/** detail and args_json of a waiting approval are cut past this (then it cannot be allowed remotely). */
export const MAX_REMOTE_DETAIL_CHARS = 96 * 1024;
/** One message's text in remote_conversation. */
export const MAX_REMOTE_TEXT_CHARS = 8000;
/** Messages per remote_read, and the default. */
export const MAX_REMOTE_READ = 50;
export const DEFAULT_REMOTE_READ = 20;
/** Sessions in remote_sessions (newest first). */
export const MAX_REMOTE_SESSIONS = 50;

export const rightsSchema = z.object({ remote: z.boolean(), screen_control: z.boolean() });
export type DeviceRights = z.infer<typeof rightsSchema>;

const reqId = z.string().check(z.minLength(1), z.maxLength(MAX_REQ_ID_CHARS));
const ref = z.string().check(z.minLength(1), z.maxLength(128));
const base = { v: z.number(), req_id: reqId };

export const remoteSessionsRequest = z.object({ type: z.literal('remote_sessions'), ...base });
export const remotePendingRequest = z.object({
  type: z.literal('remote_pending'),
  ...base,
  session_id: z.optional(ref),
});
export const remoteDecideRequest = z.object({
  type: z.literal('remote_decide'),
  ...base,
  session_id: ref,
  approval_id: ref,
  hash: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters')),
  decision: z.enum(['allow', 'deny']),
  reason: z.optional(z.string().check(z.maxLength(MAX_REMOTE_REASON_CHARS))),
  /** An external agent's approval: which of the item's `options` was picked, by id. */
  option: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export const remoteAnswerRequest = z.object({
  type: z.literal('remote_answer'),
  ...base,
  session_id: ref,
  question_id: ref,
  answers: z
    .array(
      z.union([
        z.strictObject({ selected: z.array(z.number().check(z.int(), z.minimum(0))) }),
        z.strictObject({ text: z.string().check(z.maxLength(MAX_REMOTE_ANSWER_CHARS)) }),
      ]),
    )
    .check(z.minLength(1), z.maxLength(16)),
  notes: z.optional(z.string().check(z.maxLength(MAX_REMOTE_ANSWER_CHARS))),
});
/** An MCP server's elicitation answered from the phone (the host checks the content again). */
export const remoteElicitRequest = z.object({
  type: z.literal('remote_elicit'),
  ...base,
  session_id: ref,
  elicitation_id: ref,
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.optional(
    z.record(
      z.string().check(z.maxLength(128)),
      z.union([
        z.string().check(z.maxLength(ELICIT_MAX_TEXT_CHARS)),
        z.number(),
        z.boolean(),
        z.array(z.string().check(z.maxLength(ELICIT_MAX_TEXT_CHARS))),
      ]),
    ),
  ),
});
export const remoteReadRequest = z.object({
  type: z.literal('remote_read'),
  ...base,
  session_id: ref,
  limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_REMOTE_READ))),
  before_seq: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export const remoteMessageRequest = z.object({
  type: z.literal('remote_message'),
  ...base,
  session_id: ref,
  text: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_REMOTE_MESSAGE_CHARS, `at most ${MAX_REMOTE_MESSAGE_CHARS} characters`),
    ),
});

export const remoteRequestSchema = z.discriminatedUnion('type', [
  remoteSessionsRequest,
  remotePendingRequest,
  remoteDecideRequest,
  remoteAnswerRequest,
  remoteElicitRequest,
  remoteReadRequest,
  remoteMessageRequest,
]);
export type RemoteRequest = z.infer<typeof remoteRequestSchema>;
export type RemoteRequestOf<T extends RemoteRequest['type']> = Extract<RemoteRequest, { type: T }>;

export const REMOTE_REQUEST_TYPES = [
  'remote_sessions',
  'remote_pending',
  'remote_decide',
  'remote_answer',
  'remote_elicit',
  'remote_read',
  'remote_message',
] as const;

/** Requests that change something; they have a tighter budget than reads. */
export const REMOTE_ACTION_TYPES: readonly string[] = [
  'remote_decide',
  'remote_answer',
  'remote_elicit',
  'remote_message',
];

export const REMOTE_ERROR_CODES = [
  'no_remote_rights',
  'unsupported_version',
  'bad_request',
  'not_found',
  'stale',
  'already_decided',
  'already_answered',
  'too_large',
  'invalid',
  'rate_limited',
  'internal_error',
] as const;
export type RemoteErrorCode = (typeof REMOTE_ERROR_CODES)[number];

// ---- desktop to phone ----

export const remoteSessionState = z.enum(['running', 'waiting', 'done', 'failed']);
export type RemoteSessionState = z.infer<typeof remoteSessionState>;

export const remoteSessionSchema = z.object({
  session_id: z.string(),
  title: z.string(),
  project: z.nullable(z.string()),
  state: remoteSessionState,
  /** Approvals and questions waiting on the user. */
  waiting: z.number(),
  updated_at: z.number(),
});
export type RemoteSession = z.infer<typeof remoteSessionSchema>;

const questionOption = z.object({ label: z.string(), description: z.string() });
export const remoteQuestionSchema = z.object({
  header: z.string(),
  question: z.string(),
  options: z.array(questionOption),
  multi_select: z.boolean(),
});

export const remoteApprovalItem = z.object({
  kind: z.literal('approval'),
  session_id: z.string(),
  session_title: z.string(),
  approval_id: z.string(),
  tool: z.string(),
  summary: z.string(),
  /** What the desktop shows before deciding: the whole command, the whole diff. */
  detail: z.string(),
  /** The call's arguments as JSON text. */
  args_json: z.string(),
  /** sha256 over what is approved (PROTOCOL.md "The approval hash"); echo it in remote_decide. */
  hash: z.string(),
  /** detail or args_json was cut at MAX_REMOTE_DETAIL_CHARS: deny only, allow on the desktop. */
  truncated: z.boolean(),
  requested_at: z.number(),
  /** An external agent's own choices (ACP): decide with one of them (`option`) instead of Approve / Deny. */
  options: z.optional(
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
      }),
    ),
  ),
});
export const remoteQuestionItem = z.object({
  kind: z.literal('question'),
  session_id: z.string(),
  session_title: z.string(),
  question_id: z.string(),
  questions: z.array(remoteQuestionSchema),
  notes_placeholder: z.nullable(z.string()),
  asked_at: z.number(),
});
/** An MCP server asks (elicitation): its form, or the page it asks to open (url mode). */
export const remoteElicitationItem = z.object({
  kind: z.literal('elicitation'),
  session_id: z.string(),
  session_title: z.string(),
  elicitation_id: z.string(),
  server: z.string(),
  message: z.string(),
  mode: z.enum(['form', 'url']),
  form: z.optional(elicitFormSchema),
  url: z.optional(z.string()),
  asked_at: z.number(),
});
export const remoteItemSchema = z.discriminatedUnion('kind', [
  remoteApprovalItem,
  remoteQuestionItem,
  remoteElicitationItem,
]);
export type RemoteItem = z.infer<typeof remoteItemSchema>;
export type RemoteApprovalItem = z.infer<typeof remoteApprovalItem>;
export type RemoteElicitationItem = z.infer<typeof remoteElicitationItem>;

/** The id a waiting item is decided by (and announced under). */
export function remoteItemId(item: RemoteItem): string {
  return item.kind === 'approval'
    ? item.approval_id
    : item.kind === 'question'
      ? item.question_id
      : item.elicitation_id;
}

export const remoteMessageItem = z.object({
  seq: z.number(),
  role: z.enum(['user', 'assistant', 'tool']),
  text: z.string(),
  ts: z.number(),
  truncated: z.optional(z.boolean()),
  /** A user message sent from a phone: that phone's name. */
  via: z.optional(z.string()),
});
export type RemoteMessageItem = z.infer<typeof remoteMessageItem>;

const reply = { v: z.number(), req_id: z.string() };
export const remoteHostFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('remote_sessions'),
    ...reply,
    sessions: z.array(remoteSessionSchema),
  }),
  z.object({
    type: z.literal('remote_pending'),
    ...reply,
    total: z.number(),
    items: z.array(remoteItemSchema),
  }),
  z.object({
    type: z.literal('remote_done'),
    ...reply,
    message_id: z.optional(z.string()),
  }),
  z.object({
    type: z.literal('remote_conversation'),
    ...reply,
    session_id: z.string(),
    state: remoteSessionState,
    more: z.boolean(),
    items: z.array(remoteMessageItem),
  }),
  z.object({
    type: z.literal('remote_error'),
    v: z.number(),
    /** null when the request was too malformed to carry one. */
    req_id: z.nullable(z.string()),
    code: z.string(),
    message: z.string(),
  }),
  z.object({ type: z.literal('remote_changed'), v: z.number() }),
  z.object({
    type: z.literal('remote_notify'),
    v: z.number(),
    session_id: z.string(),
    session_title: z.string(),
    kind: z.enum(['approval', 'question', 'elicitation']),
    item_id: z.string(),
    title: z.string(),
    body: z.string(),
  }),
]);
export type RemoteHostFrame = z.infer<typeof remoteHostFrameSchema>;

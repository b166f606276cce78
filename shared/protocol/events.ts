import { z } from 'zod';
import { sessionWorktreeSchema } from './session-worktree';
import { permissionModeWire } from './common';
import { pastedTextSchema } from '../attachments/pasted-text';
import { elicitFormSchema } from '../mcp/elicitation-form';

const elicitValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

// A session is an append-only log of these events. Each carries `seq` (0-based position in the
// log, the replay cursor) and `ts` (ms since epoch), assigned by the store when it is appended.
// Everything a client shows is a projection of this log.

/** A compaction's summary when `/clear` made it: the context starts over, nothing summarized. */
export const CLEARED_SUMMARY =
  'The user cleared the context here; earlier messages are not part of it.';

/** Anthropic's own shape for extended thinking (configs/app.json `model.thinking`, per session too). */
export const thinkingWire = z.union([
  z.literal('off'),
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
]);
export type ThinkingWire = z.infer<typeof thinkingWire>;

/** Anthropic's limit per image is 5 MB; base64 is 4/3 of that. */
export const IMAGE_MAX_BASE64_CHARS = Math.ceil((5 * 1024 * 1024 * 4) / 3);
/** An image's file name, kept so "Edit and resend" can show its chip as it was pasted. */
export const IMAGE_NAME_MAX_CHARS = 200;
export const imageWire = z.object({
  media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  data: z.base64().max(IMAGE_MAX_BASE64_CHARS),
  /** The pasted or dropped file's name (never sent to a model). */
  name: z.string().min(1).max(IMAGE_NAME_MAX_CHARS).optional(),
});
export type ImageWire = z.infer<typeof imageWire>;

/** A project file named with `@path` in a user message, read when it was sent. */
export const fileMentionSchema = z.object({
  /** Relative to the session's root. */
  path: z.string(),
  text: z.string(),
  /** Why the text is cut or absent (a large or binary file). */
  note: z.string().optional(),
});
export type FileMention = z.infer<typeof fileMentionSchema>;

const todoItem = z.object({
  label: z.string().max(200),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

const questionOption = z.object({ label: z.string(), description: z.string().default('') });
export const questionSchema = z.object({
  header: z.string(),
  question: z.string(),
  options: z.array(questionOption),
  multi_select: z.boolean().default(false),
});
export const questionAnswerSchema = z.object({
  /** One entry per question: option indexes or free text, never both. */
  answers: z.array(
    // Strict members: an answer carrying both is refused, not trimmed to one of them.
    z.union(
      [
        z.strictObject({ selected: z.array(z.number().int().min(0)) }),
        z.strictObject({ text: z.string() }),
      ],
      {
        error:
          'each answer is either {"selected": [option indexes]} or {"text": "..."}, never both',
      },
    ),
  ),
  notes: z.string().optional(),
});

/** One choice an external agent offers on a permission request (allow once, reject always...). */
export const approvalOption = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});
export type ApprovalOption = z.infer<typeof approvalOption>;

/** One of an external agent's own modes (ACP SessionMode). */
export const agentModeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
});

/**
 * One of an external agent's session settings (ACP SessionConfigOption: its model, its reasoning
 * level...): a choice among values (grouped or not) or an on/off switch, with its current value.
 */
export const agentOptionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    category: z.string().optional(),
    current: z.string(),
    choices: z.array(
      z.object({
        value: z.string(),
        name: z.string(),
        description: z.string().optional(),
        /** The agent's group of this value (a provider of models), by its name. */
        group: z.string().optional(),
      }),
    ),
  }),
  z.object({
    type: z.literal('boolean'),
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    category: z.string().optional(),
    current: z.boolean(),
  }),
]);
export type AgentOption = z.infer<typeof agentOptionSchema>;

/** A decision, answer or message that came from a paired phone, by its name at the time. */
export const remoteVia = z.object({ device_id: z.string(), device_name: z.string() });
export type RemoteVia = z.infer<typeof remoteVia>;

// Built when first parsed against (z.lazy): an idle host with its page open and no session open
// parses no event, and the union's 45 event schemas were built at load (#26).
export const sessionEventBodySchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('session_created'),
      title: z.string(),
      project: z.string().nullable(),
      root: z.string().nullable(),
      /** The git worktree made for the session (issue 28); absent: it works in its project. */
      worktree: sessionWorktreeSchema.optional(),
      /** The external ACP agent its turns run on (`agents.NAME`, issue 30); absent: the app's own. */
      agent: z.string().optional(),
    }),
    z.object({
      type: z.literal('user_message'),
      text: z.string(),
      message_id: z.string(),
      /** Pasted or dropped images, shown to models that accept images. */
      images: z.array(imageWire).optional(),
      /** Long pastes kept as chips: the model reads them after the text. */
      pastes: z.array(pastedTextSchema).optional(),
      /** Files named with `@path`: the model reads them after the text. */
      mentions: z.array(fileMentionSchema).optional(),
      /** Sent from a paired phone (remote rights): which one. */
      via: remoteVia.optional(),
    }),
    /** A finished assistant message; its live text arrives before as transient deltas. */
    z.object({
      type: z.literal('assistant_message'),
      message_id: z.string(),
      agent_id: z.string().default('root'),
      text: z.string(),
      thinking: z.string().optional(),
      /** The user stopped the run mid-answer: `text` is what had streamed by then. */
      stopped: z.boolean().optional(),
      /**
       * The provider's own reasoning blocks (Anthropic thinking/redacted_thinking with signatures,
       * OpenAI Responses reasoning items with encrypted content), kept verbatim: they are sent back
       * unchanged, and only to the provider that produced them.
       */
      reasoning: z
        .object({ provider: z.string(), items: z.array(z.looseObject({ type: z.string() })) })
        .optional(),
      /** Why the model stopped when it was not a plain end or a tool call (max_tokens, refusal...). */
      stop_reason: z.string().optional(),
    }),
    z.object({
      type: z.literal('tool_call'),
      call_id: z.string(),
      agent_id: z.string().default('root'),
      name: z.string(),
      args: z.unknown(),
    }),
    z.object({
      type: z.literal('tool_result'),
      call_id: z.string(),
      agent_id: z.string().default('root'),
      name: z.string(),
      payload: z.looseObject({ kind: z.string() }),
    }),
    z.object({
      type: z.literal('todos'),
      items: z.array(todoItem),
      source: z.string(),
      agent_id: z.string(),
    }),
    z.object({
      type: z.literal('question'),
      question_id: z.string(),
      call_id: z.string(),
      questions: z.array(questionSchema),
      timeout_seconds: z.number().optional(),
      notes_placeholder: z.string().optional(),
    }),
    z.object({
      type: z.literal('question_answer'),
      question_id: z.string(),
      answer: questionAnswerSchema,
      /** "in_place": the waiting tool call got it; "late": it arrives as a new message. */
      delivery: z.enum(['in_place', 'late']),
      /** Sent from a paired phone (remote rights): which one. */
      via: remoteVia.optional(),
    }),
    z.object({ type: z.literal('question_expired'), question_id: z.string() }),
    z.object({ type: z.literal('question_superseded'), question_id: z.string() }),
    /**
     * An MCP server asks the user during one of its tool calls (elicitation/create): a form of typed
     * fields, or a page to open (url mode: shown by its host, opened only once the user agrees).
     */
    z.object({
      type: z.literal('elicitation'),
      elicitation_id: z.string(),
      call_id: z.string(),
      /** The server's name: the one asking (an external agent's, with `asker` 'agent'). */
      server: z.string(),
      /** An external ACP agent asks (which way to sign in to it); absent: an MCP server. */
      asker: z.literal('agent').optional(),
      message: z.string(),
      mode: z.enum(['form', 'url']),
      form: z.optional(elicitFormSchema),
      url: z.string().optional(),
    }),
    /**
     * The answer the server got: accept (with the form's content), decline, or cancel (the user
     * dismissed it, or Stop, a new message, the server withdrew, the app restarted: `reason`).
     */
    z.object({
      type: z.literal('elicitation_answer'),
      elicitation_id: z.string(),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), elicitValueSchema).optional(),
      reason: z.string().optional(),
      via: remoteVia.optional(),
    }),
    z.object({
      type: z.literal('panel'),
      ui_id: z.string(),
      call_id: z.string(),
      spec: z.unknown(),
      summary: z.string(),
      text: z.string(),
    }),
    z.object({
      type: z.literal('project_switch'),
      from: z.string().nullable(),
      to: z.string(),
      root: z.string(),
    }),
    z.object({
      type: z.literal('approval_request'),
      approval_id: z.string(),
      call_id: z.string(),
      tool: z.string(),
      /** What the user must see in full before deciding: the command, the diff. */
      summary: z.string(),
      detail: z.string(),
      /** The permission rule "Always allow" would add for this call (absent: none would be safe). */
      suggested_rule: z.string().optional(),
      /**
       * Files the app obeys or runs (`.mewbo/`, `.claude/`, `.mcp.json`, `.git/`) that this call
       * writes, relative to the root: asked in every mode, and an allow writes exactly these.
       */
      policy_files: z.array(z.string()).optional(),
      /**
       * An external agent's own choices for this request (ACP session/request_permission); the
       * decision names the one picked. Absent: Approve / Deny.
       */
      options: z.array(approvalOption).optional(),
    }),
    z.object({
      type: z.literal('approval_decision'),
      approval_id: z.string(),
      decision: z.enum(['allow', 'deny']),
      reason: z.string().optional(),
      by: z.enum(['user', 'policy']),
      /** "Always allow": the rule the user added with this decision, and where. */
      always: z
        .object({ rule: z.string(), scope: z.enum(['session', 'project', 'user']) })
        .optional(),
      /** Sent from a paired phone (remote rights): which one. */
      via: remoteVia.optional(),
      /** Which of the request's `options` was picked (an external agent's request). */
      option: z.string().optional(),
    }),
    z.object({
      type: z.literal('plan'),
      plan_id: z.string(),
      text: z.string(),
      /** The exit_plan_mode call that proposed it (its result carries the decision). */
      call_id: z.string().optional(),
    }),
    z.object({
      type: z.literal('plan_decision'),
      plan_id: z.string(),
      decision: z.enum(['approve', 'reject']),
      feedback: z.string().optional(),
    }),
    z.object({ type: z.literal('mode_change'), mode: permissionModeWire }),
    z.object({
      type: z.literal('device_tool_call'),
      call_id: z.string(),
      device_id: z.string(),
      tool_id: z.string(),
      args: z.unknown(),
    }),
    z.object({
      type: z.literal('device_tool_result'),
      call_id: z.string(),
      device_id: z.string(),
      status: z.enum(['ok', 'error']),
      result: z.unknown().optional(),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
    }),
    z.object({
      type: z.literal('run_state'),
      state: z.enum(['running', 'waiting', 'idle', 'stopped', 'failed']),
      reason: z.string().optional(),
    }),
    z.object({
      type: z.literal('usage'),
      agent_id: z.string().default('root'),
      model: z.string(),
      /** Every prompt token of the call, cached or not. */
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      /** The part of input_tokens read from the provider's prompt cache. */
      cache_read_tokens: z.number().int().optional(),
      /** The part of input_tokens written to the prompt cache. */
      cache_write_tokens: z.number().int().optional(),
      /** The part of output_tokens spent reasoning (OpenAI reports it; Anthropic counts it in output). */
      reasoning_tokens: z.number().int().optional(),
      provider: z.string().optional(),
      /** The model's window and the prompt size at which the context is compacted (the meter). */
      context_window: z.number().int().optional(),
      compact_at_tokens: z.number().int().optional(),
      /** Estimated from the price table in configs/app.json when the model is in it. */
      cost_usd: z.number().optional(),
    }),
    /** The model this session's runs use (`provider:name` or a name); null: the app's default. */
    z.object({
      type: z.literal('model_change'),
      model: z.string().nullable(),
      /** Anthropic extended thinking for this session; absent: configs/app.json's model.thinking. */
      thinking: thinkingWire.optional(),
    }),
    z.object({
      type: z.literal('compaction'),
      summary: z.string(),
      upto_seq: z.number().int(),
      agent_id: z.string().default('root'),
    }),
    z.object({
      type: z.literal('subagent'),
      agent_id: z.string(),
      task: z.string(),
      state: z.enum(['started', 'finished', 'failed']),
      result: z.string().optional(),
    }),
    z.object({
      type: z.literal('shell_started'),
      shell_id: z.string(),
      command: z.string(),
      cwd: z.string(),
    }),
    z.object({
      type: z.literal('shell_exited'),
      shell_id: z.string(),
      exit_code: z.number().int().nullable(),
      signal: z.string().nullable(),
    }),
    z.object({
      type: z.literal('diagnostics'),
      file: z.string(),
      text: z.string(),
      /** How many errors and warnings `text` stands for, listed or not (the card's count). */
      errors: z.number().int().min(0).optional(),
      warnings: z.number().int().min(0).optional(),
      /** The edit that caused them (shown on its card) and the agent whose context gets them. */
      call_id: z.string().optional(),
      agent_id: z.string().default('root'),
    }),
    /** One run of a user's hook command (issue 20): shown as a small card; `to_model` goes in the agent's context. */
    z.object({
      type: z.literal('hook_run'),
      hook_event: z.string(),
      command: z.string(),
      scope: z.enum(['user', 'project']),
      tool_name: z.string().optional(),
      call_id: z.string().optional(),
      agent_id: z.string().default('root'),
      outcome: z.enum(['ok', 'blocked', 'failed', 'timeout']),
      exit_code: z.number().int().nullable(),
      duration_ms: z.number().int(),
      stdout: z.string().default(''),
      stderr: z.string().default(''),
      to_model: z.string().optional(),
    }),
    /** A user message that was `/name args`: what the model reads instead (a command's or skill's text). */
    z.object({
      type: z.literal('command_expanded'),
      message_id: z.string(),
      name: z.string(),
      /** `prompt`: an MCP server's prompt, its prompts/get messages as `text`. */
      kind: z.enum(['command', 'skill', 'prompt']),
      scope: z.enum(['user', 'project']),
      text: z.string(),
    }),
    /** A subdirectory's CLAUDE.md / AGENTS.md, loaded once when the agent first works there. */
    z.object({
      type: z.literal('instructions_loaded'),
      /** Relative to the project root. */
      file: z.string(),
      text: z.string(),
      agent_id: z.string().default('root'),
    }),
    /**
     * The session's title. `by`: who named it when not the user: the app (from the first message, a
     * fork's "Fork N:") or an external agent (session_info_update), which may rename it again only
     * while the user has not.
     */
    z.object({
      type: z.literal('session_renamed'),
      title: z.string(),
      by: z.enum(['app', 'agent']).optional(),
    }),
    /** A snapshot of the project's files (checkpoints/), taken before a turn first writes and after it. */
    z.object({
      type: z.literal('checkpoint'),
      /** The user message that started the turn. */
      turn_seq: z.number().int().min(0),
      phase: z.enum(['before', 'after']),
      root: z.string(),
      commit: z.string(),
      /** Files over the size limit: listed, not stored, never restored. */
      large_files: z.array(z.object({ path: z.string(), size: z.number() })).default([]),
    }),
    /**
     * Files and/or the conversation taken back to before the user message `to_seq`; with `undo_of`,
     * the undoing of the rewind at that seq (its hidden events shown again, its files put back).
     */
    z.object({
      type: z.literal('rewind'),
      to_seq: z.number().int().min(0),
      mode: z.enum(['both', 'files', 'conversation']),
      undo_of: z.number().int().min(0).optional(),
      root: z.string().nullable(),
      /** The project's files just before this rewind (what undoing it restores), and just after. */
      before_commit: z.string().nullable(),
      after_commit: z.string().nullable().default(null),
      restored: z.array(z.string()).default([]),
      created: z.array(z.string()).default([]),
      deleted: z.array(z.string()).default([]),
      /** Changed by the user since the agent's last snapshot, and left as they are. */
      kept: z.array(z.string()).default([]),
      /** Over the size limit: never stored, left as they are. */
      not_stored: z.array(z.string()).default([]),
    }),
    /**
     * Regenerate: the latest turn's answer made again. The events [from_seq, this one) (the answer
     * it replaces, from just after the user message) are left out of the model's context and kept
     * as an earlier version of the answer; the user message stays, sent once.
     */
    z.object({
      type: z.literal('regenerate'),
      /** The user message whose answer is made again. */
      message_id: z.string(),
      from_seq: z.number().int().min(0),
    }),
    z.object({
      type: z.literal('session_forked'),
      from_session: z.string(),
      /** Events [0, at_seq) of the original were copied. */
      at_seq: z.number().int().min(0),
    }),

    /** The session's agent was changed before its first message (null: the app's own). */
    z.object({ type: z.literal('agent_change'), agent: z.string().nullable() }),
    /** The external agent's own session behind this one (ACP session/new), resumed with session/load. */
    z.object({ type: z.literal('agent_session'), agent: z.string(), session_id: z.string() }),
    /** The `/` commands an external agent offers (ACP available_commands_update): the latest wins. */
    z.object({
      type: z.literal('agent_commands'),
      commands: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          /** What its argument is for (ACP `input.hint`), shown beside its name in the `/` menu. */
          hint: z.string().optional(),
        }),
      ),
    }),

    /**
     * The external agent's own modes and the one it is in (ACP session/new `modes`,
     * current_mode_update, session/set_mode): the latest wins; the header's mode select lists them.
     */
    z.object({
      type: z.literal('agent_modes'),
      current: z.string(),
      modes: z.array(agentModeSchema),
    }),
    /**
     * The external agent's session settings (ACP `configOptions` of session/new, config_option_update,
     * session/set_config_option): the latest list wins; the header shows each as a control.
     */
    z.object({ type: z.literal('agent_options'), options: z.array(agentOptionSchema) }),
    /** The external agent's context window use and its cost so far (ACP usage_update). */
    z.object({
      type: z.literal('agent_usage'),
      /** Tokens in its context now, of `size`. */
      used: z.number().min(0),
      size: z.number().min(0),
      cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
    }),

    z.object({ type: z.literal('error'), message: z.string(), code: z.string().optional() }),
    /** Something the user should know that is no failure (a model moved to the Responses API). */
    z.object({ type: z.literal('notice'), code: z.string(), message: z.string() }),
  ]),
);
export type SessionEventBody = z.infer<typeof sessionEventBodySchema>;
export type SessionEventType = SessionEventBody['type'];

export const sessionEventSchema = z.intersection(
  z.object({ seq: z.number().int().min(0), ts: z.number() }),
  sessionEventBodySchema,
);
export type SessionEvent = SessionEventBody & { seq: number; ts: number };
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

/** Live-only events on a session topic: never stored, never replayed. */
export const transientEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('assistant_delta'),
    message_id: z.string(),
    agent_id: z.string(),
    text: z.string(),
    /** The text is the agent's thinking (shown live, folded once the message is logged). */
    thinking: z.boolean().optional(),
  }),
  /** A running tool call's progress (an MCP server's notifications/progress): the latest wins. */
  z.object({
    type: z.literal('tool_progress'),
    call_id: z.string(),
    agent_id: z.string(),
    progress: z.number(),
    total: z.number().nullable(),
    message: z.string().nullable(),
  }),
]);
export type TransientEvent = z.infer<typeof transientEventSchema>;

// Numbers of the agent loop, with their reasons.

/** Characters of one tool result kept in the model's context: tools cap themselves lower; this stops a runaway. */
export const TOOL_RESULT_CONTEXT_MAX_CHARS = 250_000;
/** Estimated characters per token (the usual rule of thumb for English and code). */
export const CHARS_PER_TOKEN = 4;
/** Compact once the estimated prompt exceeds this share of the usable window. */
export const COMPACT_AT_SHARE = 0.8;
/** After compaction the kept recent turns should fit in this share of the usable window. */
export const COMPACT_KEEP_SHARE = 0.3;
/** Characters of one event quoted in the transcript handed to the summarizer. */
export const SUMMARY_EVENT_MAX_CHARS = 4_000;
/** Output tokens for a compaction summary. */
export const SUMMARY_MAX_TOKENS = 4_096;
/** Sub-agents run with their own step budget: a runaway child should not eat the parent's. */
export const SUBAGENT_MAX_STEPS_SHARE = 0.5;
/** Longest a question may wait (seed: timeout_seconds at most 86,400). */
export const QUESTION_MAX_TIMEOUT_S = 86_400;
/** Questions per ask_user_question call (seed: 1 to 4). */
export const QUESTIONS_MAX = 4;
/** Todo items per list: a dock longer than this is no longer readable at a glance. */
export const TODOS_MAX_ITEMS = 100;

/** The agent's own tools (not in the built-in registry: they drive the loop itself). */
export const PLAN_TOOL_NAME = 'exit_plan_mode';
export const SUBAGENT_TOOL_NAME = 'spawn_agent';

// Hooks' limits, each with its reason.

/** Claude Code's default: a hook without `timeout` may run this long before it is killed. */
export const HOOK_DEFAULT_TIMEOUT_S = 60;
/** Output kept per stream: a hook printing without end must not fill the host's memory. */
export const HOOK_OUTPUT_MAX_BYTES = 64 * 1024;
/** After a hook exits, how long its pipes may stay open (a child it left holds them) before it is done. */
export const EXIT_DRAIN_MS = 200;
/** Output a hook_run event keeps for the card (the log is read on every open). */
export const HOOK_EVENT_OUTPUT_MAX_CHARS = 4_000;
/** Stop hooks that block in a row before the run ends anyway (a hook that always blocks would loop). */
export const STOP_HOOK_MAX_BLOCKS = 5;

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SessionStart',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];
/** Events whose matcher is tested against a tool name; the others run every hook. */
export const TOOL_EVENTS: readonly HookEventName[] = ['PreToolUse', 'PostToolUse'];

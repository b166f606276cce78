// Limits of hosting an external ACP agent (issue 30). Each has its reason beside it.

/**
 * How long Stop waits for the agent to answer session/cancel with its prompt's end before the
 * turn is ended without it: Stop must end the turn within a second (issue 30 part 5), and an
 * agent that ignores the cancel keeps running on its own until its process is closed.
 */
export const CANCEL_GRACE_MS = 500;

/**
 * How long `initialize`, `authenticate`, `session/new`, `session/load` and `session/set_mode` may
 * take: an agent that starts but never answers is reported instead of holding the session. A
 * real agent answers these in well under a second; npx-started ones may first download.
 */
export const SETUP_TIMEOUT_MS = 60_000;

/**
 * session/update notifications applied per turn before the rest are dropped with one error: an
 * agent flooding updates must not grow the session's log without bound (a real turn sends a few
 * thousand chunks at most; chunks are merged before they are logged).
 */
export const MAX_UPDATES_PER_TURN = 10_000;

/** Characters of streamed message or thought text one turn keeps (the rest is cut with a note). */
export const MAX_TURN_TEXT_CHARS = 2_000_000;

/** The bytes of one JSON-RPC line the agent may send (the SDK's own guard against a runaway line). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * How long a closed agent has to exit after SIGTERM before SIGKILL: the launcher passes the
 * signal to the agent's whole tree, which may save its session first.
 */
export const KILL_GRACE_MS = 2_000;

/** Lines of the agent's stderr kept to explain an exit (the last ones say why). */
export const STDERR_TAIL_LINES = 20;

/** A terminal's default output cap when the agent gives none (terminal/create outputByteLimit). */
export const TERMINAL_OUTPUT_BYTES = 1024 * 1024;

/** Variables of the app's environment every agent gets: it cannot find its runtime or home without them. */
export const BASE_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'USER'] as const;

// Numbers of the LSP client, with their reasons. Waits are wall-clock milliseconds.

/** initialize may build a whole program first (tsserver on a large repo, two shared cores). */
export const INITIALIZE_TIMEOUT_MS = 60_000;

/** definition/references/hover: references on a large project walks every file. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The diagnostics operation may be the first use: a cold start plus a first full check. */
export const DIAGNOSTICS_WAIT_MS = 30_000;

/**
 * Passive diagnostics hold up the agent loop after every edit, so the wait is short: enough for a
 * warm server to recheck one file; a cold server keeps warming and serves the next edit.
 */
export const PASSIVE_WAIT_MS = 4_000;

/** Shutdown: the polite request, then `exit`, then SIGTERM, then SIGKILL (VS Code's ladder). */
export const SHUTDOWN_REQUEST_MS = 2_000;
export const EXIT_WAIT_MS = 1_000;
export const KILL_GRACE_MS = 2_000;

/** VS Code's client gives up after 5 crashes in 3 minutes; a server that loops burns the cores. */
export const MAX_CRASHES = 5;
export const CRASH_WINDOW_MS = 180_000;

/** Seed: at most 50 diagnostics, severity warning or worse. */
export const MAX_DIAGNOSTICS = 50;
/** Locations returned by definition/references; a common name can have thousands of uses. */
export const MAX_LOCATIONS = 200;
/** Characters of source line shown beside a location. */
export const EXCERPT_CHARS = 160;
/** Hover text is documentation, not a file: keep it to a screenful. */
export const MAX_HOVER_CHARS = 4_000;

/** Passive diagnostics are appended to every edit's context: a bounded note, not a report. */
export const PASSIVE_MAX_PER_FILE = 20;
export const PASSIVE_MAX_CHARS = 4_000;

/** Documents kept open per server; older ones are closed so a long session stays small. */
export const MAX_OPEN_DOCUMENTS = 200;

/** Bytes of server stderr kept to explain a failed start or a crash. */
export const STDERR_TAIL_BYTES = 4_096;

/**
 * Directories watched per workspace for servers that ask the client to watch files (one inotify
 * watch each; Linux's default budget per user is 8,192 on older kernels, shared with every tool).
 */
export const MAX_WATCHED_DIRS = 4_000;
/** Disk changes are batched this long before they are sent (a checkout touches many files). */
export const WATCH_DEBOUNCE_MS = 100;

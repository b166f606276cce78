// Limits of the MCP client, with their reasons.

/** A server gets this long to spawn and answer `initialize` + `tools/list` (npx may fetch a package first). */
export const CONNECT_TIMEOUT_MS = 30_000;

/** A tool call may run long (a build, a query); progress notifications reset this clock. */
export const CALL_TIMEOUT_MS = 10 * 60_000;

/** Restart backoff after a crash: 0.5 s, 1 s, 2 s, 4 s, 8 s, then give up and say so (VS Code style bounded restarts). */
export const RESTART_BASE_MS = 500;
export const RESTART_MAX_DELAY_MS = 8_000;
export const MAX_RESTARTS = 5;
/** Up this long without a crash, a server's restart budget is whole again. */
export const HEALTHY_RESET_MS = 60_000;

/** A call that finds its server restarting waits this long for it before failing. */
export const RESTART_WAIT_MS = 10_000;

/**
 * Characters of one tool result kept for the model (about 25k tokens, Claude Code's default MCP
 * output cap). Head and tail are kept so neither the start nor the end of the output is lost.
 */
export const RESULT_MAX_CHARS = 100_000;
export const RESULT_TAIL_SHARE = 0.25;

/** Lines of a server's stderr kept for its status (why it failed to start or crashed). */
export const STDERR_TAIL_LINES = 20;
export const STDERR_LINE_MAX_CHARS = 500;

/**
 * The least severe log message asked of a server that logs (logging/setLevel): info and above
 * are what a user reads in the server's log view; debug would push them out of its few lines.
 */
export const SERVER_LOG_LEVEL = 'info';

/** Model providers accept tool names of at most 64 characters from [A-Za-z0-9_-]. */
export const TOOL_NAME_MAX = 64;

/** The timing limits as one value, so tests can shorten backoff without changing the defaults. */
export interface McpLimits {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  restartBaseMs: number;
  restartMaxDelayMs: number;
  maxRestarts: number;
  healthyResetMs: number;
  restartWaitMs: number;
  resultMaxChars: number;
}

export const DEFAULT_MCP_LIMITS: McpLimits = {
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  callTimeoutMs: CALL_TIMEOUT_MS,
  restartBaseMs: RESTART_BASE_MS,
  restartMaxDelayMs: RESTART_MAX_DELAY_MS,
  maxRestarts: MAX_RESTARTS,
  healthyResetMs: HEALTHY_RESET_MS,
  restartWaitMs: RESTART_WAIT_MS,
  resultMaxChars: RESULT_MAX_CHARS,
};

/** The name this app registers under with an authorization server (it shows it on its consent page). */
export const OAUTH_CLIENT_NAME = 'Mewbo';
/**
 * A background connection's redirect URI: the SDK builds an authorization URL before it reports
 * that the user is needed, and that URL is never opened; a sign-in uses its own listener's.
 */
export const OAUTH_PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';
/**
 * How long a headless run (`mewbo run`) waits for the browser to come back from a sign-in before it
 * goes on without that server: long enough to type a password and approve, short enough that an
 * unattended run does not hang.
 */
export const HEADLESS_SIGN_IN_WAIT_MS = 2 * 60_000;
/** How long a sign-in the user started (Settings, `mewbo mcp-auth login`) waits for the browser. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;

// Numbers of the web host (`mewbo serve`), with their reasons.

/**
 * Largest client frame the web host accepts, 40 MiB: the costliest `sessions.send` its schema lets
 * through must fit in one frame, or a message the composer accepted would close the socket. That
 * is 20 MiB of images (26.7 MiB as base64) plus 200,000 characters of text and 2 million of
 * pastes at 6 bytes each when JSON escapes them (`\u001b` in a pasted terminal log): 39.3 MiB.
 * Every other command is small. Only a logged-in socket gets this far (the upgrade needs the
 * cookie). PROTOCOL.md states the same number; test/integration/protocol/web-frame-limit.test.ts
 * holds the three together.
 */
export const MAX_FRAME_BYTES = 40 << 20;

/**
 * Request headers larger than this get 431. Node's own default (16 KiB): the UI sends a cookie and a
 * handful of headers, far below it; a bigger header block is an attack or a bug.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * A client must finish its request headers within this long, or the socket is closed (408). A local
 * browser sends them in one packet; a slow drip of header bytes (slowloris) holds a socket per drip.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/** The whole request (headers and body) within this long; the host takes no uploads over HTTP. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** How often Node checks the two timeouts above; finer than its 30 s default so they hold. */
export const TIMEOUT_CHECK_MS = 1_000;

/**
 * `mewbo serve` answers the page and the login before it loads the host (most of its code): the
 * first WebSocket loads it, and with no client by this long after listening it loads anyway, for
 * what runs without a browser (paired phones, the MCP endpoint). Longer than a browser takes from
 * the login link to the page's socket on a quiet machine, short beside a person opening the link.
 */
export const HOST_LOAD_AFTER_MS = 1_000;

/**
 * How long after the host has loaded `mewbo serve` still holds V8's start-up settings
 * (system/startup-heap.ts), unless a session opens first (a run or a console: work worth
 * optimizing at once). The first page opens in that time, and its commands and subscriptions run
 * code the load made hot (Node's import resolution and argument checks). Released at once, that
 * code was compiled by TurboFan as the page opened, which brought the compiler's own code into the
 * idle host: 58.0 instead of 54.2 MiB of RSS in bench/cli-startup (issue #26).
 */
export const STARTUP_HOLD_AFTER_LOAD_MS = 10_000;

/** A login code dies on use and expires within a minute (issue #14): long enough to click it. */
export const LOGIN_CODE_TTL_MS = 60_000;

/**
 * Codes waiting to be used at once; a new one past this evicts the oldest. A person opens a
 * browser or two; this only bounds memory against a client asking in a loop.
 */
export const MAX_PENDING_LOGIN_CODES = 16;

/**
 * How long the login cookie lives in the browser: 400 days, the most Chromium keeps a cookie.
 * It stays valid across host restarts (derived from the persisted secret) until the secret file
 * is deleted, which logs every browser out.
 */
export const LOGIN_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/**
 * A `mewbo login` request carries a proof made at its own clock time; one older or newer than
 * this is refused, and a proof's nonce is remembered this long so it cannot be replayed.
 */
export const LOGIN_PROOF_WINDOW_MS = 60_000;

/** Bytes of the persisted web secret and of each login code (256 bits: not guessable). */
export const SECRET_BYTES = 32;

// `mewbo mcp --http`, the tool server over Streamable HTTP (mcp-http-server.ts).

/** The one path the Streamable HTTP endpoint answers on (the spec's examples and most clients use it). */
export const MCP_HTTP_PATH = '/mcp';

/**
 * Sessions kept at once; a new one past this closes the one used longest ago. Each holds a tool
 * server and its replay buffer. A person connects an editor or two; clients that never send
 * DELETE (most do not, on exit) would otherwise grow the map for as long as the server runs.
 */
export const MAX_MCP_SESSIONS = 32;

/**
 * Messages a session keeps for resumption (a client that lost an SSE stream asks for what came
 * after its Last-Event-ID). Enough for a long call's progress notifications and its result; older
 * ones are dropped, and a client resuming from before them gets nothing replayed.
 */
export const MAX_MCP_REPLAY_EVENTS = 1_000;

/** Largest request body (bytes): room for big edit payloads, like the stdio server's message limit. */
export const MAX_MCP_BODY_BYTES = 64 * 1024 * 1024;

/** Request headers within this long, the whole request within the next (slowloris, as in the web host). */
export const MCP_HEADERS_TIMEOUT_MS = 10_000;
export const MCP_REQUEST_TIMEOUT_MS = 60_000;

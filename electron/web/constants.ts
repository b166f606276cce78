// Numbers of the web host (`mewbo serve`), with their reasons.

/** Largest client frame the web host accepts; commands are small, a user message is at most 200 KB. */
export const MAX_FRAME_BYTES = 1 << 20;

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

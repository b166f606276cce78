// Numbers of the pairing listener and device calls, with their reasons. Wire limits shared with
// clients live in shared/device/limits.ts.

/** A pairing code is valid 5 minutes (DESIGN). */
export const PAIR_CODE_TTL_MS = 5 * 60_000;

/** Wrong guesses one code survives (all connections together): 10 in 10^6 is a 0.001% chance. */
export const PAIR_CODE_MAX_FAILURES = 10;

/** A device call waits 30 s for its result, then fails as device_timeout (seed). */
export const DEVICE_CALL_TIMEOUT_MS = 30_000;

/** Settled calls are remembered this long so a late result gets 409/404 rather than a guess. */
export const SETTLED_CALL_MEMORY_MS = 10 * 60_000;

/** And at most this many, so a flood of calls cannot grow the tombstone map without bound. */
export const SETTLED_CALL_MEMORY_MAX = 1000;

/** Malformed frames one connection may send before it is closed ("repeated -> close"). */
export const MAX_MALFORMED_FRAMES = 5;

/** Frames per connection: a burst of 60, refilled at 30 per second. A phone sends a handful. */
export const FRAME_BURST = 60;
export const FRAMES_PER_SECOND = 30;

/** Bytes per connection: a burst of 4 MiB, refilled at 2 MiB/s; tool results are small. */
export const BYTE_BURST = 4 * 1024 * 1024;
export const BYTES_PER_SECOND = 2 * 1024 * 1024;

/** Over-limit frames tolerated (dropped with one rate_limited error) before the socket closes. */
export const MAX_RATE_VIOLATIONS = 100;

/**
 * A connection must send pair or hello within this long, or it is closed. A phone sends hello as
 * soon as its socket opens (pairing: once the user typed or scanned the code, which happens before
 * the socket opens); 10 s covers a slow phone on a busy Wi-Fi. Shorter is the point: an idle socket
 * holds one of MAX_CONNECTIONS slots only this long, so idle sockets cannot lock phones out.
 */
export const AUTH_DEADLINE_MS = 10_000;

/**
 * Before the WebSocket exists: the TLS handshake and the HTTP request headers each get this long.
 * A socket stuck there (a half-open handshake, a slow drip of headers) is not yet counted against
 * MAX_CONNECTIONS, but would still hold a descriptor until Node's minutes-long defaults.
 */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** pair attempts per connection: a phone pairs once; more is guessing. */
export const MAX_PAIR_ATTEMPTS_PER_CONNECTION = 3;

/** Open sockets at once: a household of phones plus reconnect overlap, far below a flood's reach. */
export const MAX_CONNECTIONS = 64;

/** Server pings this often; a socket that missed a whole interval is dead (a sleeping phone). */
export const HEARTBEAT_MS = 20_000;

/** last_seen is persisted at most this often while a device is attached (plus on attach/detach). */
export const LAST_SEEN_PERSIST_MS = 60_000;

/** Self-signed certificate validity: 825 days, the longest Apple platforms accept for TLS. */
export const CERT_VALIDITY_DAYS = 825;

/** Close codes (4000-4999 are the application's): clients react to these. */
export const CLOSE_CODES = {
  policy: 1008,
  tooBig: 1009,
  goingAway: 1001,
  authFailed: 4001,
  revoked: 4003,
  replaced: 4004,
  rightsChanged: 4005,
} as const;

/**
 * Remote requests per device (kept across its reconnects): reads a burst of 20 then 5 per second
 * (a page refreshing its view after each push needs two); actions (decide, answer, message) a
 * burst of 10 then one per 2 s (a person taps, a script floods); messages 10 per minute.
 */
export const REMOTE_BURST = 20;
export const REMOTE_PER_SECOND = 5;
export const REMOTE_ACTION_BURST = 10;
export const REMOTE_ACTIONS_PER_SECOND = 0.5;
export const REMOTE_MESSAGE_BURST = 10;
export const REMOTE_MESSAGES_PER_SECOND = 10 / 60;

/**
 * remote_changed pushes are coalesced to at most one per this long: a page refetches two lists
 * per push, which stays under the 5 reads a second it may make however busy a run is.
 */
export const REMOTE_PUSH_MS = 1000;

/** A desktop window's "focused" report holds this long unless renewed (a closed window says nothing). */
export const FOCUS_REPORT_TTL_MS = 60_000;

// Limits of the egress proxy, each with its unit and its reason.

/**
 * Request head (request line and headers) a client may send, in bytes. Node's own default; a
 * proxy request is a URL and a few headers, and past this the proxy answers 431.
 */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * A client that has not finished its request head after this long is answered 408 and dropped
 * (slowloris: holding many half-sent requests open to use up the proxy's sockets).
 */
export const HEADER_TIMEOUT_MS = 10_000;
/** How often node's server looks for requests past the header timeout. */
export const HEADER_CHECK_INTERVAL_MS = 1_000;
/**
 * Bytes a client may send on a CONNECT before the proxy answered it (a TLS ClientHello sent
 * early fits many times over); past this the client is dropped rather than buffered without end.
 */
export const MAX_EARLY_BYTES = 64 * 1024;
/** Connecting to the destination; past this the client gets 504. */
export const UPSTREAM_CONNECT_TIMEOUT_MS = 15_000;
/**
 * Longest a connection waits for the user to decide an approval: the longest a foreground shell
 * command may run (MAX_TIMEOUT_S of the shell tools). A command with a shorter timeout is killed
 * sooner, which closes its connection and ends the wait with it.
 */
export const ASK_TIMEOUT_MS = 3600 * 1000;

/**
 * A tunnel's download buffer: each read from the destination takes up to this much. 1 MiB: a
 * read drains what a loopback or LAN socket holds after a busy machine's scheduling gap in a
 * few system calls, per tunnel, with no allocation per chunk.
 */
export const RELAY_BUFFER_BYTES = 1024 * 1024;

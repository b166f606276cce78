// Limits of the shell tools and the live stream, each with its origin. Sizes are in characters
// (UTF-16 code units, as JavaScript counts them), like every cursor.

/** Foreground timeout when the call gives none (seed: 115 s). */
export const DEFAULT_TIMEOUT_S = 115;
/** Longest foreground timeout accepted: past an hour a command belongs in the background. */
export const MAX_TIMEOUT_S = 3600;
/** Result cap of aider_shell_tool and shell_session_tool (seed: 30,000). */
export const RESULT_CAP_CHARS = 30_000;
/** Longest a read may wait for new output (seed: wait_ms at most 30000). */
export const MAX_WAIT_MS = 30_000;
/** A write waits this long for the reply when wait_ms is not given: a prompt's answer is quick. */
export const DEFAULT_WRITE_WAIT_MS = 2_000;
/** Once output arrives, a wait ends after this much quiet, so one reply comes back whole. */
export const REPLY_SETTLE_MS = 100;

/**
 * A shell's reads of one event-loop turn are joined up to this many characters before they reach
 * its ring buffer and stream (output-batcher.ts): one frame's worth, so a full batch is a frame.
 */
export const OUTPUT_BATCH_MAX_CHARS = 64_000;
/** Stream batching (Hyper): flush every ~16 ms (one frame), or at once past this size. */
export const STREAM_BATCH_MS = 16;
/**
 * Frames are at most this large: several are in flight at once, so the client's acks (one per
 * frame written) keep data moving instead of each frame waiting for the previous one's ack.
 */
export const STREAM_BATCH_MAX_CHARS = 64_000;
/** Flow control (xterm.js / VS Code): pause the producer above this many unacked characters... */
export const FLOW_HIGH_WATERMARK_CHARS = 512_000;
/**
 * ...and resume once every subscriber is below this. High, so the client still has most of a
 * watermark to draw while the producer gets going again: on a busy machine a resumed PTY took
 * 100-400 ms to refill (4 KB reads, each waiting for the shell and the host to be scheduled), and
 * resumed at 128,000 the page ran dry first and idled (#26 part 2).
 */
export const FLOW_LOW_WATERMARK_CHARS = 384_000;
/**
 * What may be sent and not yet acked. Live output is bounded by the paused producer (the PTY is
 * paused, not the socket); this only paces a replay of the retained buffer to a far-behind client.
 */
export const FLOW_SEND_WINDOW_CHARS = 1_000_000;
/**
 * A subscriber holding the producer paused without acking for this long stops holding it (a
 * frozen or hidden client must not stall the agent's dev server); it catches up from the ring
 * buffer when it acks again, with missed_characters if output was evicted meanwhile.
 */
export const FLOW_STALL_MS = 5_000;
/** While a PTY is paused, how often its command is checked for having ended (pty-child.ts). */
export const PAUSED_EXIT_POLL_MS = 50;
/** After a resume, this long without output means the kernel's buffer is drained. */
export const DRAIN_QUIET_MS = 30;

/** After SIGTERM and the launcher's own grace, how long before the host kills the group itself. */
export const HOST_KILL_MARGIN_MS = 1_000;
/** A child that exited but whose pipes stay open (a leftover holds them) is cut off after this. */
export const PIPE_DRAIN_MS = 2_000;
/**
 * Refused connections remembered per shell until a result tells them (a client retrying one
 * destination in a loop says the same reason once; past this many distinct ones, the first tell).
 */
export const MAX_REFUSALS_KEPT = 20;
/** URLs remembered per shell for the list (dev servers print one or two). */
export const MAX_URLS = 5;
/** Terminal size of a PTY until a console resizes it. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 30;
/**
 * A running background shell's record (state and retained output) is rewritten at most this often
 * once it starts printing after a quiet spell: what a host killed without warning loses is at most
 * this much output.
 */
export const SHELL_RECORD_FIRST_MS = 1_000;
/**
 * While a shell keeps printing, each rewrite waits twice as long as the one before, up to this:
 * every rewrite serialises and fsyncs the whole ring (up to 1,000,000 characters), which cost the
 * console stream about 16 ms of host CPU a second (#29: 0.26 CPU-s per 64 MiB). A streaming shell
 * is rewritten 1, 3, 7, 12, 17... s after it began, so a crash loses at most 5 s of its output.
 */
export const SHELL_RECORD_MAX_MS = 5_000;

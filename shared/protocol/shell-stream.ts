import { z } from 'zod';
import { shellInfoSchema, shellStatusSchema } from '../tools/shell-payload';

// The live stream of one shell's output to a console (topic `shell:<session_id>:<shell_id>`).
// A subscription replays retained output from the topic cursor (absolute, in characters), then
// continues live. Frames are batched (about 16 ms or 64,000 characters) and flow-controlled: the
// client acks the characters it has consumed (wire `ack` frame, n = characters; one ack per frame
// written is enough). The host pauses the producing process above 512,000 unacknowledged
// characters and resumes it below 128,000 (xterm.js's watermarks); frames keep flowing meanwhile,
// several in flight, up to 1,000,000 unacknowledged (which only paces a replay).
// On the web host a client may opt in to a binary form of shell_output (raw UTF-8 after a small
// header): shell-binary.ts has its layout, electron/web/PROTOCOL.md the negotiation.

export const shellOutputFrameSchema = z.object({
  type: z.literal('shell_output'),
  shell_id: z.string(),
  /** Absolute position of data[0]; the next frame starts at cursor + data.length. */
  cursor: z.number().int().min(0),
  data: z.string(),
  /** Output evicted before this subscriber got it (it lagged or subscribed from an old cursor). */
  missed_characters: z.number().int().min(0).optional(),
});

/** Sent first (the snapshot) and whenever status changes (exit). */
export const shellStateFrameSchema = z.object({
  type: z.literal('shell_state'),
  shell: shellInfoSchema,
});

export const shellStreamFrameSchema = z.discriminatedUnion('type', [
  shellOutputFrameSchema,
  shellStateFrameSchema,
]);
export type ShellOutputFrame = z.infer<typeof shellOutputFrameSchema>;
export type ShellStateFrame = z.infer<typeof shellStateFrameSchema>;
export type ShellStreamFrame = z.infer<typeof shellStreamFrameSchema>;

/** Requests a console makes besides subscribing (typing, resizing, stopping, listing). */
export const shellInputRequestSchema = z.object({
  session_id: z.string(),
  shell_id: z.string(),
  data: z.string().max(100_000),
});
export const shellResizeRequestSchema = z.object({
  session_id: z.string(),
  /** Absent: the size the session's next console will have (its next PTY is born at it). */
  shell_id: z.string().optional(),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(1000),
});
export const shellKillRequestSchema = z.object({ session_id: z.string(), shell_id: z.string() });
export const shellListRequestSchema = z.object({ session_id: z.string() });
export const shellListResponseSchema = z.object({ shells: z.array(shellInfoSchema) });
export const shellKillResponseSchema = z.object({ status: shellStatusSchema });

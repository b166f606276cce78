import { z } from 'zod';

// The link of a session whose project is on an SSH host (issue #29 part 4), as the `remote` topic
// carries it: every known session's state on subscribe, then each change. `connected`: its tools
// and consoles reach the host; `reconnecting`: the link dropped and the app is trying again with
// backoff (the host's shells keep running meanwhile); `disconnected`: no link (not opened yet,
// or the app gave up, or the host refused), the next tool call opens it again.

export const remoteLinkStateSchema = z.enum(['disconnected', 'reconnecting', 'connected']);
export type RemoteLinkState = z.infer<typeof remoteLinkStateSchema>;

export const remoteLinkFrameSchema = z.object({
  type: z.literal('remote_link'),
  session_id: z.string(),
  /** The host, as `ssh://[user@]host[:port]/` (the session's project URL without its path). */
  host: z.string(),
  state: remoteLinkStateSchema,
});
export type RemoteLinkFrame = z.infer<typeof remoteLinkFrameSchema>;

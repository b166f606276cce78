import { z } from 'zod';
import { command } from '../command';
import { sessionSummarySchema } from '../session-summary';

// Taking back what the agent did and carrying sessions elsewhere: rewind (files and/or the
// conversation, undoable), fork, export.

const id = z.string().min(1);
const seq = z.number().int().min(0);

export const rewindModeSchema = z.enum(['both', 'files', 'conversation']);
export type RewindMode = z.infer<typeof rewindModeSchema>;

const previewFile = z.object({
  path: z.string(),
  action: z.enum(['restore', 'create', 'delete']),
  /** Changed by the user after the agent last touched the tree: kept unless ticked. */
  user_changed: z.boolean(),
});
export type RewindPreviewFile = z.infer<typeof previewFile>;

export const rewindPreviewSchema = z.object({
  to_seq: seq,
  root: z.string(),
  /** False when the agent wrote nothing since that message: there are no files to restore. */
  has_checkpoint: z.boolean(),
  files: z.array(previewFile),
  /** Over the size limit: never stored, so they are left as they are. */
  not_stored: z.array(z.string()),
  /** Events of the conversation that a conversation rewind hides. */
  conversation_events: z.number().int(),
});
export type RewindPreview = z.infer<typeof rewindPreviewSchema>;

export const checkpointCommands = {
  /** What a rewind to the user message at `to_seq` would do, before anything is touched. */
  'sessions.rewindPreview': command(
    () => z.object({ id, to_seq: seq }),
    () => rewindPreviewSchema,
  ),
  'sessions.rewind': command(
    () =>
      z.object({
        id,
        to_seq: seq,
        mode: rewindModeSchema,
        /** User-changed files to restore anyway (the ticked ones). */
        include: z.array(z.string()).default([]),
      }),
    () => z.object({ seq }),
  ),
  'sessions.undoRewind': command(
    () => z.object({ id, rewind_seq: seq }),
    () => z.object({ seq }),
  ),
  /** A new session holding events [0, at_seq) of this one (all of it without at_seq). */
  'sessions.fork': command(
    () => z.object({ id, at_seq: seq.optional() }),
    () => z.object({ session: sessionSummarySchema }),
  ),
  'sessions.export': command(
    () => z.object({ id, format: z.enum(['markdown', 'jsonl']) }),
    () => z.object({ filename: z.string(), content: z.string() }),
  ),
};

import { z } from 'zod';
import { sessionWorktreeSchema } from './session-worktree';

export const runStateSchema = z.enum(['idle', 'running', 'waiting', 'stopped', 'failed']);

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  project: z.string().nullable(),
  root: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  event_count: z.number().int(),
  run_state: runStateSchema,
  /** The git worktree the session works in (its branch, the commit it started from). */
  worktree: sessionWorktreeSchema.optional(),
  /** The project's `ssh://` URL when it is on an SSH host (its link: the `remote` topic). */
  remote: z.string().optional(),
  /** The external ACP agent its turns run on (issue 30); absent: the app's own agent. */
  agent: z.string().optional(),
  /**
   * Set when the log was damaged ("N events could not be read from ..."): sent with the session
   * when it opens, so the UI can say what is missing instead of failing to open it.
   */
  notice: z.string().optional(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

/** What the `sessions` topic carries as the list changes. */
export const sessionsChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('upsert'), session: sessionSummarySchema }),
  z.object({ type: z.literal('deleted'), id: z.string() }),
]);
export type SessionsChange = z.infer<typeof sessionsChangeSchema>;

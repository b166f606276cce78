import { z } from 'zod';
import { permissionModeWire } from './common';
import { sessionEventSchema } from './events';
import { runStateSchema } from './session-summary';

// A session's current state as of one point in its log (`seq`: the events before it are folded
// in). `sessions.open` sends it with the newest window of events, so a client draws a long session
// without its history: the permission mode, the todo dock, questions still waiting for an answer
// (their cards may lie before the window), and the shells the session started.

export const snapshotShellSchema = z.object({
  shell_id: z.string(),
  command: z.string(),
  cwd: z.string(),
  state: z.enum(['running', 'exited']),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  started_ts: z.number(),
  ended_ts: z.number().optional(),
});

export const sessionSnapshotSchema = z.object({
  /** Events folded in: the snapshot describes the session after event `seq - 1`. */
  seq: z.number().int().min(0),
  title: z.string(),
  project: z.string().nullable(),
  root: z.string().nullable(),
  /** The last mode_change; null: none yet (the configured default applies). */
  mode: permissionModeWire.nullable(),
  /** The root agent's latest todo list; null: it never wrote one. */
  todos: z
    .array(
      z.object({
        label: z.string(),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .nullable(),
  run_state: runStateSchema,
  /** `question` events with no answer, expiry or supersession yet, oldest first. */
  open_questions: z.array(sessionEventSchema),
  shells: z.array(snapshotShellSchema),
  /**
   * The latest `agent_modes`, `agent_options` and `agent_usage` events (an external agent's
   * modes, settings and usage, which the header draws however old they are).
   */
  agent_state: z.array(sessionEventSchema).default([]),
});
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
export type SnapshotShell = z.infer<typeof snapshotShellSchema>;

/**
 * On the `session:<id>` topic, after the replay from the cursor and before live events: the
 * snapshot as of the end of the replay (`snapshot.seq`). A client that opened a log not indexed
 * yet (its `sessions.open` snapshot was null) gets its state here.
 */
export const sessionSnapshotFrameSchema = z.object({
  type: z.literal('session_snapshot'),
  snapshot: sessionSnapshotSchema,
});
export type SessionSnapshotFrame = z.infer<typeof sessionSnapshotFrameSchema>;

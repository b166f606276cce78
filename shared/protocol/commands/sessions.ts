import { z } from 'zod';
import { command } from '../command';
import { sessionSummarySchema } from '../session-summary';
import { imageWire, sessionEventSchema, thinkingWire } from '../events';
import { sessionSnapshotSchema } from '../session-snapshot';
import { worktreeCopySchema, worktreeRequestSchema } from '../session-worktree';
import { clientCapabilitySchema } from '../capabilities';
import { pastedTextsSchema } from '../../attachments/pasted-text';
import { permissionModeWire } from '../common';
import {
  IMAGES_MAX_TOTAL_BASE64_CHARS,
  IMAGES_MAX_TOTAL_BYTES,
  IMAGES_PER_MESSAGE,
} from '../../images/image-file';

const id = z.string().min(1);
const ok = z.object({ ok: z.literal(true) });

export const sessionCommands = {
  'sessions.list': command(
    () => z.object({}),
    () => z.object({ sessions: z.array(sessionSummarySchema) }),
  ),
  /**
   * A new session in `project`; with `worktree`, in a new git worktree of the project's repository
   * on a new branch from its HEAD (`true`: a branch named for the session; `{branch}`: that name,
   * refused if taken). The repository's problems (no commits, a detached HEAD, staged changes, a
   * bare repository) are refused with what to do.
   */
  'sessions.create': command(
    () =>
      z.object({
        title: z.string().max(200).optional(),
        project: z.string().nullable().optional(),
        worktree: worktreeRequestSchema.optional(),
        /** An external ACP agent (`agents.NAME` or a preset found on PATH) runs its turns. */
        agent: z.string().min(1).max(64).optional(),
      }),
    () =>
      z.object({
        session: sessionSummarySchema,
        /** With `worktree`: the `worktrees.copy` files copied into it, and those skipped with why. */
        copy: worktreeCopySchema.optional(),
      }),
  ),
  /**
   * Summary, snapshot (the state as of `next`) and the newest `limit` events as they are in the
   * log, `start` being the first one's seq; with `from`, the events from that seq on instead.
   * `snapshot` is null for a long log not indexed yet (written before indexes existed): it is read
   * from its end, indexed after the answer, and its snapshot comes on the topic.
   * Older events come from `sessions.events`; live ones through the `session:<id>` topic from
   * `next`. The cost does not grow with the session's history.
   */
  'sessions.open': command(
    () =>
      z.object({
        id,
        from: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(20000).default(256),
      }),
    () =>
      z.object({
        session: sessionSummarySchema,
        snapshot: sessionSnapshotSchema.nullable(),
        events: z.array(sessionEventSchema),
        start: z.number().int(),
        next: z.number().int(),
      }),
  ),
  /** An older page: up to `limit` events just before seq `before`, oldest first. */
  'sessions.events': command(
    () =>
      z.object({
        id,
        before: z.number().int().min(0),
        limit: z.number().int().min(1).max(5000).default(256),
      }),
    () => z.object({ events: z.array(sessionEventSchema), start: z.number().int() }),
  ),
  'sessions.rename': command(
    () => z.object({ id, title: z.string().trim().min(1).max(200) }),
    () => z.object({ session: sessionSummarySchema }),
  ),
  /**
   * Removes a session. Its worktree (a worktree session's) stays with its branch unless
   * `worktree: 'remove'`; then work it holds that no other branch has (files not committed,
   * commits of its own) refuses the delete (`worktree_has_work`, each listed in `issues`) unless
   * `discard_work: true` says the user saw that list and confirmed.
   */
  'sessions.delete': command(
    () =>
      z.object({
        id,
        worktree: z.enum(['keep', 'remove']).default('keep'),
        discard_work: z.boolean().default(false),
      }),
    () => ok,
  ),
  /** Sessions whose messages contain the text (titles are matched on the client). */
  'sessions.search': command(
    () => z.object({ query: z.string().trim().min(1).max(200) }),
    () => z.object({ hits: z.array(z.object({ id: z.string(), snippet: z.string() })) }),
  ),
  /**
   * Ctrl+F in a paged conversation: the messages before seq `before` (the part the view has not
   * loaded) that contain the text, with how often, oldest first.
   */
  'sessions.find': command(
    () =>
      z.object({
        id,
        query: z.string().min(1).max(200),
        before: z.number().int().min(0),
      }),
    () => z.object({ matches: z.array(z.object({ seq: z.number(), count: z.number() })) }),
  ),
  'sessions.send': command(
    () =>
      z
        .object({
          id,
          /** May be empty when images carry the message. */
          text: z.string().max(200_000),
          /** Images sent with the text (each at most 5 MB, all together at most 20 MB). */
          images: z
            .array(imageWire)
            .max(IMAGES_PER_MESSAGE)
            .refine(
              (all) => all.reduce((n, i) => n + i.data.length, 0) <= IMAGES_MAX_TOTAL_BASE64_CHARS,
              `the images add up to more than ${IMAGES_MAX_TOTAL_BYTES / 2 ** 20} MB`,
            )
            .optional(),
          /** Long pastes, kept whole as chips (all together at most 2 million characters). */
          pastes: pastedTextsSchema.optional(),
          capabilities: z.array(clientCapabilitySchema).default([]),
        })
        .refine((r) => r.text.trim() || r.images?.length || r.pastes?.length, {
          message: 'the message is empty',
          path: ['text'],
        }),
    () => z.object({ message_id: z.string() }),
  ),
  'sessions.stop': command(
    () => z.object({ id }),
    () => ok,
  ),
  /**
   * Regenerate: the answer to the latest user message (`message_id`) is made again. The earlier
   * answer stays in the log as a version of it (a `regenerate` event); the question is sent once.
   * Refused while a run is active, and for any message but the latest.
   */
  'sessions.regenerate': command(
    () =>
      z.object({
        id,
        message_id: z.string(),
        capabilities: z.array(clientCapabilitySchema).default([]),
      }),
    () => ok,
  ),
  'sessions.setMode': command(
    () => z.object({ id, mode: permissionModeWire }),
    () => ok,
  ),
  /**
   * Which agent runs the session's turns (an external ACP agent by name; null: the app's own),
   * changeable until its first message: after that the agent holds a conversation the other
   * never saw. Refused for a session in its own worktree (an external agent cannot have one yet).
   */
  'sessions.setAgent': command(
    () => z.object({ id, agent: z.string().min(1).max(64).nullable() }),
    () => z.object({ session: sessionSummarySchema }),
  ),
  /**
   * Compacts the root agent's context now: the model summarizes what came before, as automatic
   * compaction does. With `clear`, the context starts over empty from here (no summary, no model
   * call). Either way the log and the conversation on screen keep everything. `compacted` false:
   * nothing was done, `message` says why in the user's words (a run is active, no model is set up,
   * nothing to compact yet, the summary failed).
   */
  'sessions.compact': command(
    () => z.object({ id, clear: z.boolean().optional() }),
    () => z.object({ compacted: z.boolean(), message: z.string().nullable() }),
  ),
  /** This session's model from its next run on (`provider:name`); null goes back to the default. */
  'sessions.setModel': command(
    () =>
      z.object({
        id,
        model: z.string().trim().min(1).max(200).nullable(),
        thinking: thinkingWire.optional(),
      }),
    () => ok,
  ),
};

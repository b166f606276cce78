import { z } from 'zod';
import { command } from '../command';
import { sessionWorktreeSchema } from '../session-worktree';

// The Review of a session that works in its own git worktree (issue 28): what it changed since
// its base, its commits, and the four ways its work lands: Apply (onto the checkout as
// uncommitted edits, all or nothing), Commit (on its branch), Open branch (the worktree stays for
// the user's tools) and Discard (worktree and branch removed).

const id = z.string().min(1);

export const reviewFileSchema = z.object({
  path: z.string(),
  /** A added, D deleted, M modified, T type changed. */
  status: z.enum(['A', 'D', 'M', 'T']),
  /** Lines added and removed; null for a binary file. */
  additions: z.number().int().nullable(),
  deletions: z.number().int().nullable(),
});
export type ReviewFile = z.infer<typeof reviewFileSchema>;

export const reviewCommitSchema = z.object({
  sha: z.string(),
  subject: z.string(),
  author: z.string(),
  /** Seconds since the epoch. */
  time: z.number(),
});
export type ReviewCommit = z.infer<typeof reviewCommitSchema>;

export const worktreeReviewSchema = z.object({
  worktree: sessionWorktreeSchema,
  /** Every file that differs from the base, committed or not. */
  files: z.array(reviewFileSchema),
  /** The session's commits since its base, newest first. */
  commits: z.array(reviewCommitSchema),
  /** Files changed and not committed on the branch yet (what Commit would add). */
  uncommitted: z.array(z.string()),
});
export type WorktreeReview = z.infer<typeof worktreeReviewSchema>;

/** What Discard loses: work not committed, and commits no other branch holds. */
export const worktreeLossSchema = z.object({
  uncommitted: z.array(z.string()),
  commits: z.array(reviewCommitSchema),
});
export type WorktreeLoss = z.infer<typeof worktreeLossSchema>;

export const worktreeCommands = {
  'worktrees.review': command(
    () => z.object({ id }),
    () => worktreeReviewSchema,
  ),
  /** The unified diff from the base to the work now: one file's (`path`), or all of it. */
  'worktrees.diff': command(
    () => z.object({ id, path: z.string().min(1).optional() }),
    () => z.object({ patch: z.string() }),
  ),
  /**
   * The session's changes onto the checkout as uncommitted edits, all or nothing: refused
   * (`apply_conflict`, naming every file) when the checkout changed the same lines.
   */
  'worktrees.apply': command(
    () => z.object({ id }),
    () => z.object({ files: z.array(z.string()) }),
  ),
  /** Commits everything not committed in the worktree on the session's branch. */
  'worktrees.commit': command(
    () => z.object({ id, message: z.string().trim().min(1).max(10_000) }),
    () => z.object({ sha: z.string() }),
  ),
  /**
   * A commit message for the work not committed, proposed by the session's model from its diff;
   * when the model cannot (none set, an error, a timeout) a message naming the files, with why.
   */
  'worktrees.proposeMessage': command(
    () => z.object({ id }),
    () =>
      z.object({
        message: z.string(),
        source: z.enum(['model', 'fallback']),
        reason: z.string().nullable(),
      }),
  ),
  /**
   * Open branch: the worktree's folder opened in the system's file manager; it stays for the
   * user's tools until Discard. Refused (`no_opener`) where nothing can open a folder.
   */
  'worktrees.openFolder': command(
    () => z.object({ id }),
    () => z.object({ path: z.string(), opened_with: z.string() }),
  ),
  'worktrees.loss': command(
    () => z.object({ id }),
    () => worktreeLossSchema,
  ),
  /** Removes the worktree and its branch (after the user saw what is lost); leaves no lock. */
  'worktrees.discard': command(
    () => z.object({ id }),
    () => z.object({ ok: z.literal(true) }),
  ),
};

import { z } from 'zod';

/**
 * The git worktree a session works in (issue 28): made for it by `git worktree add` on a new
 * branch from the repository's HEAD. Recorded in the session's `session_created` event and its
 * meta, so a restart, an export and the review all know where the work is and what it started
 * from, without asking the (agent-writable) worktree itself.
 */
export const sessionWorktreeSchema = z.object({
  /** The worktree's top folder (real path); the session's root is here or below. */
  path: z.string(),
  /** The branch made for the session (short name, no refs/heads/). */
  branch: z.string(),
  /** The commit the branch started from: the review's diff is against it. */
  base: z.string(),
  /** The repository's main checkout (its top folder): read-only to the session's shells. */
  checkout: z.string(),
  /** The repository's common git directory (objects, refs: shared by every worktree). */
  git_dir: z.string(),
  /** git's name for the worktree: its administrative folder is `git_dir/worktrees/<name>`. */
  name: z.string(),
  /**
   * Files that differ from the base (committed or not), counted when the session's run last
   * stopped or paused: the sidebar shows it without reading every worktree.
   */
  changed_files: z.number().int().min(0).optional(),
  /** When Discard removed the worktree and its branch (ms); the session keeps its history. */
  removed_at: z.number().optional(),
});
export type SessionWorktree = z.infer<typeof sessionWorktreeSchema>;

/** `sessions.create`'s `worktree`: a branch git names for the session, or one the caller names. */
export const worktreeRequestSchema = z.union([
  z.literal(true),
  z.object({ branch: z.string().trim().min(1).max(200) }),
]);
export type WorktreeRequest = z.infer<typeof worktreeRequestSchema>;

/** What a new worktree got of the `worktrees.copy` list. */
export const worktreeCopySchema = z.object({
  copied: z.array(z.string()),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});

// Limits and names of session worktrees (issue 28), with their reasons.

/** Branches git names for sessions start with this, so `git branch` shows which are the app's. */
export const SESSION_BRANCH_PREFIX = 'mewbo/';

/** The default folder of a repository's session worktrees sits beside it: `<repo>` + this. */
export const BESIDE_REPO_SUFFIX = '.worktrees';

/** Characters of a session title kept in a branch name git picks (the rest is a unique suffix). */
export const BRANCH_TITLE_CHARS = 40;

/** Names tried for a branch git picks before giving up (each collision adds a counter). */
export const BRANCH_NAME_TRIES = 50;

/** Staged files named in the refusal of a dirty index; more are counted, not listed. */
export const REFUSAL_FILES_SHOWN = 5;

/** A file of `worktrees.copy` larger than this is skipped: it is a `.env`, not a data set. */
export const COPY_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Files one `worktrees.copy` pattern may copy; a `*` matching more is cut off with a warning. */
export const COPY_MAX_FILES = 200;

/**
 * A review's diff (all files, or one) printed by git beyond this is refused, not cut short: a
 * patch missing its end reads as a smaller change than the session made.
 */
export const REVIEW_DIFF_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Characters of the uncommitted diff sent to the model for a commit message: about 6,000 tokens,
 * enough to see what changed and cheap on any model; a longer diff is cut with a note saying so.
 */
export const COMMIT_PROMPT_DIFF_CHARS = 24_000;

/** The proposed message's output cap: a subject and a short body, never an essay. */
export const COMMIT_MESSAGE_MAX_TOKENS = 400;

/** A proposal that takes longer than this falls back: the user is waiting on the Commit field. */
export const COMMIT_MESSAGE_TIMEOUT_MS = 60_000;

/** Files named in the fallback message; more are counted. */
export const FALLBACK_MESSAGE_FILES = 3;

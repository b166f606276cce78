/**
 * A session nobody views and that runs nothing is closed after this long: long enough that going
 * back and forth between two sessions does not reopen one each time, short enough that the host's
 * memory follows what is on screen. (Its events leave memory at once; this is the rest.)
 */
export const SESSION_QUIET_CLOSE_MS = 60_000;

/**
 * `@file` mentions in a message: files attached at most (more are left as plain text), and the
 * bytes read from each and from all of them. read_file's one-result cap is 200,000 characters;
 * a message's mentions share that, so mentioning files cannot push more into the context than
 * one read could.
 */
export const MENTION_MAX_FILES = 10;
export const MENTION_MAX_BYTES = 100_000;
export const MENTION_TOTAL_BYTES = 200_000;

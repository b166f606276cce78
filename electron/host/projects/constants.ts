// Limits of the project registry, with their reasons.

/** A git call on a slow or hung disk must not hold the picker: it is killed after this long. */
export const GIT_TIMEOUT_MS = 5_000;
/** git's output the registry reads (worktree lists, a config value): far above any real answer. */
export const GIT_MAX_BUFFER = 16 * 1024 * 1024;
/** Cloning a repository or adding a worktree writes a whole tree: allow more. */
export const GIT_WRITE_TIMEOUT_MS = 5 * 60_000;
/** A stat that does not answer in this long (a dead network mount) counts as unavailable for now. */
export const STAT_TIMEOUT_MS = 1_500;
/** How often the registry looks for folders that vanished or came back while nobody asked. */
export const REFRESH_INTERVAL_MS = 30_000;
/** How many recently opened projects the picker shows. */
export const RECENT_MAX = 20;
/** The registry file under $MEWBO_HOME/state. */
export const REGISTRY_FILE = 'projects.json';

/**
 * The composer's `@` file list reuses one walk of a project for this long: the menu asks on every
 * keystroke, and a file created a moment ago still shows up within a few seconds.
 */
export const FILE_INDEX_TTL_MS = 3_000;
/** A walk of a huge tree (or a hung disk) stops after this long; what it found is used. */
export const FILE_INDEX_WALK_MS = 10_000;
/** Project roots whose walk is kept at once (the sessions open in a window span a few projects). */
export const FILE_INDEX_ROOTS = 8;

/**
 * The picker's path completion lists at most this many folders: a screenful and more, and a
 * folder with thousands of subfolders is narrowed by typing, not scrolled.
 */
export const FOLDER_COMPLETIONS_MAX = 50;

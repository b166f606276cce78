// Limits of the file tools. The numbers are the seed's where it gives one (tool-parameters.md).

/** read_file: lines in a window when the model gives no limit (seed default). */
export const READ_FILE_DEFAULT_LIMIT = 2000;
/** read_file: characters in one result (seed cap). */
export const READ_FILE_MAX_CHARS = 200_000;
/** read_file: characters of one line shown before it is cut (minified code, logs on one line). */
export const READ_FILE_MAX_LINE_CHARS = 2000;
/** The seed's exact marker ending a window that stops before the end of the file. */
export const TRUNCATION_MARKER = '... (truncated - use offset/limit to read more)';
/** Bytes sniffed for NUL bytes and non-text to call a file binary (git looks at 8000). */
export const BINARY_SNIFF_BYTES = 8192;

/** aider_list_dir_tool: characters in one result (seed cap for list dir). */
export const LIST_DIR_MAX_CHARS = 30_000;
/** aider_list_dir_tool: entries listed when the model gives no max_entries. */
export const LIST_DIR_DEFAULT_MAX_ENTRIES = 2000;
/** aider_list_dir_tool: hard ceiling on max_entries (the char cap bounds the result anyway). */
export const LIST_DIR_MAX_ENTRIES = 100_000;

/**
 * Edits refuse files larger than this (bytes): an edit holds the old and new text and their
 * encoded bytes in memory at once (about 4x), and V8 strings stop at about 512 MiB.
 */
export const EDIT_MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Near-match hints: characters of the closest span quoted back to the model. */
export const NEAR_MATCH_MAX_CHARS = 1500;

// Numbers of tool_search and deferral, with where they come from.

export const TOOL_SEARCH_NAME = 'tool_search';

/** Seed: max_results defaults to 5 and is clamped to 1..25. */
export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_CAP = 25;

/**
 * Rough bytes per token of JSON tool schemas, used only to compare deferrable schemas with the
 * context window (adaptive rule); the real tokenizer is the provider's and is not needed for a share.
 */
export const BYTES_PER_TOKEN = 4;

/** A `select:` query naming more tools than this is cut: the result would be a schema dump. */
export const MAX_SELECT_NAMES = MAX_RESULTS_CAP;

// Limits of the permission rules' bash analysis, each with its reason.

/**
 * How deep commands inside commands are followed: a wrapper's command (`nice timeout 5 rm`), a
 * string given to `sh -c` / `eval` parsed again, and so on. Real commands nest two or three
 * levels; past this a command is not judged (it asks) instead of recursing without end on
 * `eval "$(printf 'eval %.0s' {1..1000})"`-like input.
 */
export const BASH_MAX_DEPTH = 12;

/**
 * Longest command text judged, in characters. Parsing is linear, but a command this long is not
 * something a user reads in an approval card either: it asks.
 */
export const BASH_MAX_CHARS = 100_000;

/** Where the bundle keeps the grammar's and the runtime's .wasm files (build/build.mjs copies them). */
export const WASM_DIR = 'tree-sitter';
export const RUNTIME_WASM = 'web-tree-sitter.wasm';
export const BASH_WASM = 'tree-sitter-bash.wasm';

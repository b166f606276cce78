// The hard limits of a present_ui panel (seed: builtin-tools.md, tool-parameters.md). A tree that
// overruns one is refused with the validation error, never trimmed, so the model can correct it.

/** Nodes in one panel, containers included. */
export const PANEL_MAX_NODES = 200;
/** Nesting levels: a root node is level 1. */
export const PANEL_MAX_DEPTH = 8;
/** JSON.stringify length of the whole tree. */
export const PANEL_MAX_SERIALIZED_CHARS = 200_000;
/** A CodeBlock's source. */
export const PANEL_MAX_CODE_CHARS = 20_000;
/** Prose: a Text paragraph, an Alert's body. */
export const PANEL_MAX_PROSE_CHARS = 2_000;
/** A Table cell or a KeyValue value. */
export const PANEL_MAX_VALUE_CHARS = 500;
/** Labels, titles, headings, headers, badges. */
export const PANEL_MAX_LABEL_CHARS = 200;
/** The one-line summary of a panel. */
export const PANEL_MAX_SUMMARY_CHARS = 200;

/** Panel ids: `gui-` and 8 hex digits. */
export const PANEL_ID_PATTERN = /^gui-[0-9a-f]{8}$/;
/** A Card's or Stack's id, the handle later calls append into or update by. */
export const CONTAINER_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** Links only to these destinations: a panel is drawn from a tree a model authored. */
export const LINK_PATTERN = /^(https?:\/\/[^\s<>"'`]+|mailto:[^\s<>"'`]+)$/i;

// Limits of the device wire protocol, shared by the host, the phone page and native clients'
// documentation (electron/host/devices/PROTOCOL.md). Each number says why it is what it is.

/** A device tool id: `device_` and 1-48 of [a-z0-9_] (seed, DESIGN "Phone pairing"). */
export const DEVICE_TOOL_ID_PATTERN = /^device_[a-z0-9_]{1,48}$/;

/**
 * Largest frame either side may send: 1 MiB (PROTOCOL.md "Frames"). Larger frames close the socket
 * (1009). The pairing listener is on the LAN and takes frames before a hello, so this bounds what
 * its 64 sockets can make the desktop buffer; a screen capture fits as a JPEG (about 760 KB).
 */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Tools one declaration may carry: far above any phone's set, low enough to bound a model's bind. */
export const MAX_DECLARED_TOOLS = 64;

/** A tool description the model reads: generous for a paragraph, bounded for the prompt. */
export const MAX_TOOL_DESCRIPTION_CHARS = 2000;

/** A tool's parameters JSON Schema, serialized: a big schema is a mistake, not a feature. */
export const MAX_PARAMETERS_SCHEMA_CHARS = 32 * 1024;

/** Nesting depth of a parameters schema; also keeps schema conversion far from the stack limit. */
export const MAX_PARAMETERS_SCHEMA_DEPTH = 16;

/** What a person calls their phone in the device list. */
export const MAX_DEVICE_NAME_CHARS = 64;

/** Upper bound for ids, codes and tokens on the wire (ours are 16-43 characters). */
export const MAX_ID_CHARS = 128;

/** The path of the WebSocket endpoint on the pairing listener. */
export const DEVICE_SOCKET_PATH = '/ws';

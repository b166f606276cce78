// Workspace trust's limits, each with its reason.

/**
 * The largest trusted file whose text is kept for the re-trust diff (bytes). Settings and
 * `.mcp.json` files are a few KiB; past this only the digest is kept and a change is shown whole.
 */
export const TRUSTED_TEXT_MAX_BYTES = 256 * 1024;

import type { ErrorPayload, ToolPayload } from './payload-schemas';

// Every tool returns a JSON payload tagged with `kind`. Errors the model should see are payloads
// too (kind "error"), never exceptions. Their schemas are in ./payload-schemas.ts: every tool
// loads this module, and `mewbo tool read_file` loads no classic zod (cli/zod-jitless.ts).

export type { ErrorPayload, FilePayload, ImagePayload, ToolPayload } from './payload-schemas';

export function errorPayload(
  code: string,
  message: string,
  details?: Record<string, unknown>,
): ErrorPayload {
  return details ? { kind: 'error', code, message, details } : { kind: 'error', code, message };
}

export function isErrorPayload(p: ToolPayload): p is ErrorPayload {
  return p.kind === 'error';
}

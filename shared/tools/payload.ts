import { z } from 'zod';

// Every tool returns a JSON payload tagged with `kind`. Errors the model should see are payloads
// too (kind "error"), never exceptions.

export const errorPayloadSchema = z.object({
  kind: z.literal('error'),
  /** Machine-readable reason: path_validation, not_found, no_match, invalid_args, ... */
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorPayload = z.infer<typeof errorPayloadSchema>;

export const toolPayloadSchema = z.looseObject({ kind: z.string() });
export type ToolPayload = z.infer<typeof toolPayloadSchema>;

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

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

/**
 * read_file's window. Lines are numbered from 1 like `cat -n`; `total_lines` is null when the
 * file is too large to count in one read (its scan is bounded), and then a window at the end of it
 * is numbered from the end instead (`lines_from_end`: -1 is the last line, start_line and end_line
 * are negative too). `next_offset` (when `truncated`) is the offset that reads on.
 */
export const filePayloadSchema = z.looseObject({
  kind: z.literal('file'),
  path: z.string(),
  content: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  total_lines: z.number().int().nonnegative().nullable(),
  truncated: z.boolean(),
  next_offset: z.number().int().optional(),
  lines_from_end: z.literal(true).optional(),
  note: z.string().optional(),
});
export type FilePayload = z.infer<typeof filePayloadSchema>;

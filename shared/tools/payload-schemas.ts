import { z } from 'zod';
import { IMAGE_MEDIA_TYPES } from '../images/image-file';

// The schemas of tools' payloads (./payload.ts), for the code that checks one it received.
// Apart from payload.ts, which every tool loads: `mewbo tool read_file` loads no classic zod.

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

/**
 * read_file's window. Lines are numbered from 1 like `cat -n`; `total_lines` is null when the
 * lines were not all counted (more than a read counts after a window only for the total, or more
 * than one read's time bound scans). A tail window (negative offset) is counted and truly
 * numbered; only when the count could not finish in time is it numbered from the end instead
 * (`lines_from_end`: -1 is the last line, start_line and end_line are negative too).
 * `next_offset` (when `truncated`) is the offset that reads on.
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

/**
 * read_file's result for an image file: its description, and the file as base64 in `image`, which
 * goes to the model as an image (never as text) where the model takes images.
 */
export const imagePayloadSchema = z.looseObject({
  kind: z.literal('image'),
  path: z.string(),
  media_type: z.enum(IMAGE_MEDIA_TYPES),
  size_bytes: z.number().int().nonnegative(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  message: z.string(),
  image: z.object({ media_type: z.enum(IMAGE_MEDIA_TYPES), data: z.string() }),
});
export type ImagePayload = z.infer<typeof imagePayloadSchema>;

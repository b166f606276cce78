import type { ToolPayload } from '../../../../shared/tools/payload';

// Text a card header or body takes from a payload, kept free of React so it is testable alone.

/** "lines 1–40 of 120", or what the payload says instead (unchanged, binary). */
export function readRange(payload: ToolPayload | undefined): string {
  if (!payload) return '';
  if (payload.kind === 'file_unchanged') return 'unchanged since last read';
  if (payload.kind === 'binary' && typeof payload.media_type === 'string')
    return `image not shown, ${payload.size_bytes} bytes`;
  if (payload.kind === 'binary') return `binary, ${payload.size_bytes} bytes`;
  if (payload.kind === 'image')
    return `image${payload.width ? `, ${payload.width}×${payload.height}` : ''}, ${payload.size_bytes} bytes`;
  if (payload.kind !== 'file') return '';
  const { start_line, end_line, total_lines, truncated } = payload as unknown as Record<
    string,
    number | boolean | null
  >;
  if (total_lines === 0) return 'empty file';
  // A file too large to count: its total is null and a tail window is numbered from the end.
  const of = total_lines === null ? 'of a file too large to count' : `of ${total_lines}`;
  const range = payload.lines_from_end
    ? `last lines ${start_line}–${end_line}`
    : `lines ${start_line}–${end_line}`;
  return `${range} ${of}${truncated ? ', truncated' : ''}`;
}

/** A shell payload's merged output (stdout for a run, output for a session read). */
export function shellOutput(p: ToolPayload | undefined): string {
  if (!p) return '';
  const v = p.stdout ?? p.output;
  return typeof v === 'string' ? v : '';
}

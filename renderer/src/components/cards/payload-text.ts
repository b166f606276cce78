import type { ToolPayload } from '../../../../shared/tools/payload';

// Text a card header or body takes from a payload, kept free of React so it is testable alone.

/** "lines 1–40 of 120", or what the payload says instead (unchanged, binary). */
export function readRange(payload: ToolPayload | undefined): string {
  if (!payload) return '';
  if (payload.kind === 'file_unchanged') return 'unchanged since last read';
  if (payload.kind === 'binary') return `binary, ${payload.size_bytes} bytes`;
  if (payload.kind !== 'file') return '';
  const { start_line, end_line, total_lines, truncated } = payload as unknown as Record<
    string,
    number | boolean
  >;
  if (total_lines === 0) return 'empty file';
  return `lines ${start_line}–${end_line} of ${total_lines}${truncated ? ', truncated' : ''}`;
}

/** A shell payload's merged output (stdout for a run, output for a session read). */
export function shellOutput(p: ToolPayload | undefined): string {
  if (!p) return '';
  const v = p.stdout ?? p.output;
  return typeof v === 'string' ? v : '';
}

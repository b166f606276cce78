import type { ToolPayload } from '../../../../shared/tools/payload';

/** read_file: the window it returned, numbered as the model saw it. */
export function ReadBody({ payload }: { payload: ToolPayload }) {
  const note =
    typeof payload.note === 'string'
      ? payload.note
      : typeof payload.message === 'string'
        ? payload.message
        : null;
  const content = typeof payload.content === 'string' ? payload.content : '';
  return (
    <div className="read-body">
      {note && <p className="muted small">{note}</p>}
      {content && <pre className="code small">{content}</pre>}
    </div>
  );
}

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

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

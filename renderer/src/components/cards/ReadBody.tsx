import type { ToolPayload } from '../../../../shared/tools/payload';
import { imagePayloadSchema } from '../../../../shared/tools/payload-schemas';

/** read_file: the window it returned, numbered as the model saw it. */
export function ReadBody({ payload }: { payload: ToolPayload }) {
  const note =
    typeof payload.note === 'string'
      ? payload.note
      : typeof payload.message === 'string'
        ? payload.message
        : null;
  const content = typeof payload.content === 'string' ? payload.content : '';
  // An image file is shown as the model was shown it.
  const image = imagePayloadSchema.safeParse(payload);
  return (
    <div className="read-body">
      {note && <p className="muted small">{note}</p>}
      {image.success && (
        <img
          className="read-image"
          src={`data:${image.data.image.media_type};base64,${image.data.image.data}`}
          alt={image.data.path}
        />
      )}
      {content && <pre className="code small">{content}</pre>}
    </div>
  );
}

import type { ToolPayload } from '../../../shared/tools/payload';
import { imagePayloadSchema } from '../../../shared/tools/payload-schemas';
import type { ModelImage } from '../models/types';
import { TOOL_RESULT_CONTEXT_MAX_CHARS } from './constants';

// How a tool's payload reads in the model's context: the payload as JSON, except that one long
// text field (a file window, shell output, a diff) follows it verbatim. Escaped newlines and
// quotes inside JSON make exact-string edits harder for a model to copy. An image a tool read is
// never text: it travels beside the result (resultImages), and the text keeps only its description.

const VERBATIM_FIELDS = ['text', 'output', 'content'] as const;
/** A one-line text field shorter than this stays inside the JSON. */
const VERBATIM_MIN_CHARS = 200;

function verbatim(v: unknown): v is string {
  return typeof v === 'string' && (v.length >= VERBATIM_MIN_CHARS || v.includes('\n'));
}

export function renderToolResult(
  payload: ToolPayload,
  maxChars = TOOL_RESULT_CONTEXT_MAX_CHARS,
): string {
  let out: string;
  if (payload.kind === 'image') {
    const { image: _image, ...described } = payload;
    payload = described;
  }
  const field = VERBATIM_FIELDS.find((f) => verbatim(payload[f]));
  if (field) {
    const { [field]: long, ...rest } = payload;
    out = `${JSON.stringify(rest)}\n${field}:\n${long as string}`;
  } else out = JSON.stringify(payload);
  if (out.length <= maxChars) return out;
  const head = out.slice(0, Math.floor(maxChars * 0.8));
  const tail = out.slice(out.length - Math.floor(maxChars * 0.15));
  return `${head}\n... [${out.length - head.length - tail.length} characters cut from this result] ...\n${tail}`;
}

/** The image a result carries (read_file on an image file), as the model is shown it. */
export function resultImages(payload: ToolPayload): { images?: ModelImage[] } {
  const p = imagePayloadSchema.safeParse(payload);
  return p.success
    ? {
        images: [
          {
            mediaType: p.data.image.media_type,
            data: p.data.image.data,
            name: p.data.path,
            width: p.data.width,
            height: p.data.height,
          },
        ],
      }
    : {};
}

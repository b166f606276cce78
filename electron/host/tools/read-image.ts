import type { FileHandle } from 'node:fs/promises';
import {
  describeImage,
  IMAGE_HEADER_BYTES,
  imageRefusal,
  sniffImage,
} from '../../../shared/images/image-file';
import type { ImagePayload, ToolPayload } from '../../../shared/tools/payload';

// read_file on an image (PNG, JPEG, GIF, WebP, known by its bytes): the file itself goes to the
// model as an image, for providers that take images (each provider says so; the others get the
// payload's words instead). One over a model's limits is described, not sent, and says why.

async function readAt(handle: FileHandle, size: number): Promise<Buffer> {
  const buf = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await handle.read(buf, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return buf.subarray(0, at);
}

/**
 * The payload for an opened file of `size` bytes that `head` (its first bytes) shows to be an
 * image; null when it is none.
 */
export async function readImage(
  handle: FileHandle,
  size: number,
  head: Uint8Array,
  shown: string,
): Promise<ToolPayload | null> {
  if (!sniffImage(head)) return null;
  // Its size in pixels may be further in than the first sniff (a JPEG's frame after its EXIF).
  const info = sniffImage(await readAt(handle, Math.min(size, IMAGE_HEADER_BYTES)));
  if (!info) return null;
  const what = describeImage(info, size);
  const base = {
    path: shown,
    media_type: info.mediaType,
    size_bytes: size,
    width: info.width,
    height: info.height,
  };
  const why = imageRefusal(info, size);
  if (why)
    return {
      kind: 'binary',
      ...base,
      message: `${shown} is an image (${what}) that is not shown: ${why}.`,
    };
  const data = (await readAt(handle, size)).toString('base64');
  const payload: ImagePayload = {
    kind: 'image',
    ...base,
    message: `${shown} is an image (${what}); it is shown to you with this result.`,
    image: { media_type: info.mediaType, data },
  };
  return payload;
}

import {
  describeImage,
  formatImageBytes,
  IMAGE_HEADER_BYTES,
  IMAGES_MAX_TOTAL_BYTES,
  IMAGES_PER_MESSAGE,
  imageRefusal,
  sniffImage,
  type ImageMediaType,
} from '../../../shared/images/image-file';
import { IMAGE_NAME_MAX_CHARS, type ImageWire } from '../../../shared/protocol/events';

// Images pasted or dropped into the message box, read in the page (the host gets them as base64
// on sessions.send). What a file is comes from its bytes, never its name or the browser's guess,
// and each refusal names the file and says why, in the words the composer shows.

export interface ImageAttachment {
  id: string;
  name: string;
  bytes: number;
  mediaType: ImageMediaType;
  /** Base64 of the file. */
  data: string;
  /** "PNG, 640×480, 12 KB" */
  description: string;
}

export interface AddResult {
  added: ImageAttachment[];
  refusals: string[];
}

function base64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Reads `files` into attachments that fit beside `current`; the others become refusals. */
export async function addImages(
  current: readonly ImageAttachment[],
  files: readonly File[],
): Promise<AddResult> {
  const added: ImageAttachment[] = [];
  const refusals: string[] = [];
  let total = current.reduce((n, a) => n + a.bytes, 0);
  for (const file of files) {
    const name = (file.name || 'pasted image').slice(0, IMAGE_NAME_MAX_CHARS);
    if (current.length + added.length >= IMAGES_PER_MESSAGE) {
      refusals.push(`${name} was not added: a message takes at most ${IMAGES_PER_MESSAGE} images.`);
      continue;
    }
    const info = sniffImage(new Uint8Array(await file.slice(0, IMAGE_HEADER_BYTES).arrayBuffer()));
    if (!info) {
      refusals.push(`${name} is not an image a model can read (PNG, JPEG, GIF or WebP).`);
      continue;
    }
    const why = imageRefusal(info, file.size);
    if (why) {
      refusals.push(`${name} was not added: ${why}.`);
      continue;
    }
    if (total + file.size > IMAGES_MAX_TOTAL_BYTES) {
      refusals.push(
        `${name} was not added: the images of one message add up to at most ${formatImageBytes(IMAGES_MAX_TOTAL_BYTES)}.`,
      );
      continue;
    }
    total += file.size;
    added.push({
      id: crypto.randomUUID(),
      name,
      bytes: file.size,
      mediaType: info.mediaType,
      data: base64(await file.arrayBuffer()),
      description: describeImage(info, file.size),
    });
  }
  return { added, refusals };
}

/** The files of a paste or drop that may be images (a folder has no type: it is not ours). */
export function imageCandidates(list: FileList | null | undefined): File[] {
  return Array.from(list ?? []).filter((f) => f.type !== '');
}

const EXTENSION: Record<ImageMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * A sent message's images as the files they were ("Edit and resend"), so they come back through
 * addImages: the same checks, descriptions and thumbnails as a fresh paste. A message logged
 * before names were kept gets "image N.png".
 */
export function imageFiles(images: readonly ImageWire[]): File[] {
  return images.map((img, i) => {
    const binary = atob(img.data);
    const bytes = new Uint8Array(binary.length);
    for (let b = 0; b < binary.length; b++) bytes[b] = binary.charCodeAt(b);
    const name = img.name ?? `image ${i + 1}.${EXTENSION[img.media_type]}`;
    return new File([bytes], name, { type: img.media_type });
  });
}

/** What sessions.send carries for the chips in the box. */
export const imagesWire = (items: readonly ImageAttachment[]): ImageWire[] =>
  items.map((i) => ({ media_type: i.mediaType, data: i.data, name: i.name }));

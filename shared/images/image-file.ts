// What makes a file an image a model can be shown, read from its bytes (never its name): the
// format from the magic bytes and the size in pixels from the header, both cheap (a few dozen
// bytes, a JPEG's markers at most). The composer and read_file share these limits, so a pasted
// screenshot and a screenshot the agent reads are refused alike.

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** Anthropic's limit per image (the strictest of the providers; OpenAI takes 20 MB). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Anthropic refuses an image with a side over 8000 px. */
export const IMAGE_MAX_SIDE_PX = 8000;
/** Images on one message (sessions.send refuses more). */
export const IMAGES_PER_MESSAGE = 8;
/**
 * All the images of one message together: 4 full-size ones. Anthropic refuses a request over
 * 32 MB, and every later request of the session carries them again.
 */
export const IMAGES_MAX_TOTAL_BYTES = 4 * IMAGE_MAX_BYTES;
/** The same in base64 (4 characters per 3 bytes, each image padded to a whole group). */
export const IMAGES_MAX_TOTAL_BASE64_CHARS =
  4 * Math.ceil(IMAGES_MAX_TOTAL_BYTES / 3) + 4 * IMAGES_PER_MESSAGE;
/** Enough of the file for any format's header here (a JPEG's SOF may follow its EXIF block). */
export const IMAGE_HEADER_BYTES = 64 * 1024;

export interface ImageInfo {
  mediaType: ImageMediaType;
  /** null when the header does not say within IMAGE_HEADER_BYTES. */
  width: number | null;
  height: number | null;
}

const LABEL: Record<ImageMediaType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};
export const imageLabel = (t: ImageMediaType) => LABEL[t];

const ascii = (b: Uint8Array, at: number, s: string) =>
  [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
const be16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const le16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, at: number) => le16(b, at) | ((b[at + 2] ?? 0) << 16);
const be32 = (b: Uint8Array, at: number) => be16(b, at) * 0x10000 + be16(b, at + 2);

function jpegSize(b: Uint8Array): [number, number] | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): height then width.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return [be16(b, i + 7), be16(b, i + 5)];
    i += 2 + be16(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): [number, number] | null {
  if (ascii(b, 12, 'VP8 ') && b.length >= 30) return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
  if (ascii(b, 12, 'VP8L') && b.length >= 25) {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return [1 + (((b1 & 0x3f) << 8) | b0), 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | (b1 >> 6))];
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return [1 + le24(b, 24), 1 + le24(b, 27)];
  return null;
}

/** The image format and size from the first bytes of a file; null when it is no image shown to models. */
export function sniffImage(b: Uint8Array): ImageInfo | null {
  let mediaType: ImageMediaType;
  let size: [number, number] | null = null;
  if (b.length >= 24 && ascii(b, 0, '\x89PNG\r\n\x1a\n')) {
    mediaType = 'image/png';
    if (ascii(b, 12, 'IHDR')) size = [be32(b, 16), be32(b, 20)];
  } else if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    mediaType = 'image/jpeg';
    size = jpegSize(b);
  } else if (b.length >= 10 && (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'))) {
    mediaType = 'image/gif';
    size = [le16(b, 6), le16(b, 8)];
  } else if (b.length >= 16 && ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) {
    mediaType = 'image/webp';
    size = webpSize(b);
  } else return null;
  return { mediaType, width: size?.[0] ?? null, height: size?.[1] ?? null };
}

/** Base64 alphabet value of each character code (-1: not base64). */
const BASE64_VALUE = (() => {
  const t = new Int8Array(128).fill(-1);
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < abc.length; i++) t[abc.charCodeAt(i)] = i;
  return t;
})();

/**
 * The first bytes (at most `maxBytes`) of base64 `data`, decoding only what they need: an image
 * kept as base64 is read for its header without decoding the whole file. Stops at the first
 * character that is not base64 (padding included); never reads past `maxBytes` of output.
 */
export function base64Head(data: string, maxBytes: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, Math.min(maxBytes, Math.floor((data.length * 3) / 4))));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < data.length && n < out.length; i++) {
    const c = data.charCodeAt(i);
    const v = c < 128 ? BASE64_VALUE[c]! : -1;
    if (v < 0) break;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** Bytes enough for a PNG, GIF or WebP header (a JPEG may need up to IMAGE_HEADER_BYTES). */
const SMALL_HEADER_BYTES = 64;

/** sniffImage for an image held as base64 (a pasted image, one a tool read). */
export function sniffImageBase64(data: string): ImageInfo | null {
  const info = sniffImage(base64Head(data, SMALL_HEADER_BYTES));
  if (!info || info.width !== null || info.mediaType !== 'image/jpeg') return info;
  // A JPEG's frame header may follow its EXIF or ICC blocks.
  return sniffImage(base64Head(data, IMAGE_HEADER_BYTES));
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
export { formatBytes as formatImageBytes };

/** "PNG, 640×480, 12 KB" */
export function describeImage(info: ImageInfo, bytes: number): string {
  const dims = info.width && info.height ? `, ${info.width}×${info.height}` : '';
  return `${imageLabel(info.mediaType)}${dims}, ${formatBytes(bytes)}`;
}

/** Why an image cannot be shown to a model (in words for the person or the model), or null. */
export function imageRefusal(info: ImageInfo, bytes: number): string | null {
  if (bytes > IMAGE_MAX_BYTES)
    return `it is ${formatBytes(bytes)}, over the ${formatBytes(IMAGE_MAX_BYTES)} a model takes per image`;
  const side = Math.max(info.width ?? 0, info.height ?? 0);
  if (side > IMAGE_MAX_SIDE_PX)
    return `it is ${info.width}×${info.height} pixels; a model takes at most ${IMAGE_MAX_SIDE_PX} pixels a side`;
  return null;
}

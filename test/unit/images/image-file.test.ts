import { describe, expect, it } from 'vitest';
import {
  describeImage,
  IMAGE_MAX_BYTES,
  imageRefusal,
  sniffImage,
} from '../../../shared/images/image-file';
import { makePng } from '../../helpers/png';

// Headers built byte by byte from each format's specification, so the parser is checked against
// the formats, not against itself.

function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  // An EXIF-sized segment before the frame header: the size is found past it.
  const app1 = [0xff, 0xe1, 0x01, 0x02, ...new Array(0x100).fill(0)];
  const sof2 = [0xff, 0xc2, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...app1, 0xff, ...sof2, ...new Array(9).fill(0)]);
}

function gif(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    ...Buffer.from('GIF89a'),
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0,
    0,
    0,
  ]);
}

function riff(chunk: string, body: number[]): Uint8Array {
  const b = Buffer.alloc(20 + body.length);
  b.write('RIFF', 0);
  b.writeUInt32LE(12 + body.length, 4);
  b.write('WEBP', 8);
  b.write(chunk, 12);
  b.writeUInt32LE(body.length, 16);
  Buffer.from(body).copy(b, 20);
  return b;
}
const webpLossy = (w: number, h: number) =>
  riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, w & 255, w >> 8, h & 255, h >> 8]);
function webpLossless(w: number, h: number) {
  const bits = (w - 1) | ((h - 1) << 14);
  return riff('VP8L', [
    0x2f,
    bits & 255,
    (bits >> 8) & 255,
    (bits >> 16) & 255,
    (bits >>> 24) & 255,
  ]);
}
function webpExtended(w: number, h: number) {
  const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
  return riff('VP8X', [0, 0, 0, 0, ...le24(w - 1), ...le24(h - 1)]);
}

describe('sniffImage', () => {
  it.each([
    ['PNG', makePng(640, 480), 'image/png', 640, 480],
    ['JPEG (progressive, after an APP1 block)', jpeg(1920, 1080), 'image/jpeg', 1920, 1080],
    ['GIF', gif(300, 200), 'image/gif', 300, 200],
    ['WebP lossy', webpLossy(800, 600), 'image/webp', 800, 600],
    ['WebP lossless', webpLossless(1025, 3), 'image/webp', 1025, 3],
    ['WebP extended', webpExtended(9000, 70000), 'image/webp', 9000, 70000],
  ])('reads the format and size of a %s header', (_, bytes, type, w, h) => {
    expect(sniffImage(bytes)).toEqual({ mediaType: type, width: w, height: h });
  });

  it('takes nothing else for an image, whatever it is called', () => {
    expect(sniffImage(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(Buffer.from('\x89PN'))).toBeNull();
  });

  it('knows a JPEG whose frame header lies past what was read, without its size', () => {
    expect(sniffImage(jpeg(10, 10).subarray(0, 40))).toEqual({
      mediaType: 'image/jpeg',
      width: null,
      height: null,
    });
  });
});

describe('imageRefusal', () => {
  const png = { mediaType: 'image/png' as const, width: 100, height: 100 };
  it('refuses over 5 MB and over 8000 pixels a side, and says so', () => {
    expect(imageRefusal(png, IMAGE_MAX_BYTES)).toBeNull();
    expect(imageRefusal(png, IMAGE_MAX_BYTES + 1)).toBe(
      'it is 5.0 MB, over the 5.0 MB a model takes per image',
    );
    expect(imageRefusal({ ...png, height: 8001 }, 1000)).toBe(
      'it is 100×8001 pixels; a model takes at most 8000 pixels a side',
    );
  });
  it('describes an image in one line', () => {
    expect(describeImage(png, 12_345)).toBe('PNG, 100×100, 12 KB');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64Head,
  describeImage,
  IMAGE_MAX_BYTES,
  imageRefusal,
  sniffImage,
  sniffImageBase64,
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

// Files written by real encoders (test/fixtures/images): Chromium's canvas encoder (the PNG, the
// JPEG with its ICC profile block ahead of the frame header, the WebPs; the simple lossy and
// lossless ones are its VP8 / VP8L chunk in a plain RIFF), and two files other packages ship.
const FIXTURES = join(__dirname, '../../fixtures/images');
const REAL: [string, string, number, number][] = [
  ['canvas-37x23.png', 'image/png', 37, 23],
  ['icc-41x29.jpeg', 'image/jpeg', 41, 29],
  ['pojoaque-140x140.jpg', 'image/jpeg', 140, 140],
  ['equation-175x49.gif', 'image/gif', 175, 49],
  ['lossy-53x47.webp', 'image/webp', 53, 47],
  ['lossless-59x61.webp', 'image/webp', 59, 61],
  ['extended-67x71.webp', 'image/webp', 67, 71],
];

/** The bytes behind a proxy that records the highest index read. */
function watched(bytes: Uint8Array): { view: Uint8Array; highest: () => number } {
  let highest = -1;
  const view = new Proxy(bytes, {
    get(target, prop) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) highest = Math.max(highest, +prop);
      const v = (target as unknown as Record<string | symbol, unknown>)[prop];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { view, highest: () => highest };
}

describe('the size of real files, from their header bytes', () => {
  it.each(REAL)('%s', (file, type, w, h) => {
    const bytes = readFileSync(join(FIXTURES, file));
    expect(sniffImage(bytes)).toEqual({ mediaType: type, width: w, height: h });
    // Held as base64 (a pasted image, one a tool read): only the header is decoded.
    expect(sniffImageBase64(bytes.toString('base64'))).toEqual({
      mediaType: type,
      width: w,
      height: h,
    });
  });

  it.each(REAL)(
    '%s cut short anywhere: never throws, never reads past the end, never a wrong size',
    (file, type, w, h) => {
      const bytes = readFileSync(join(FIXTURES, file));
      for (let n = 0; n <= Math.min(bytes.length, 700); n++) {
        const { view, highest } = watched(new Uint8Array(bytes.subarray(0, n)));
        const info = sniffImage(view);
        expect(highest()).toBeLessThan(n);
        if (info) {
          expect(info.mediaType).toBe(type);
          if (info.width !== null) expect([info.width, info.height]).toEqual([w, h]);
        }
        const b64 = sniffImageBase64(bytes.subarray(0, n).toString('base64'));
        expect(b64 === null || b64.width === null || (b64.width === w && b64.height === h)).toBe(
          true,
        );
      }
    },
  );

  it('hostile headers (any bytes after a real signature) never throw nor read past the end', () => {
    const heads = REAL.map(([file]) => readFileSync(join(FIXTURES, file)).subarray(0, 16));
    fc.assert(
      fc.property(fc.constantFrom(...heads), fc.uint8Array({ maxLength: 300 }), (head, rest) => {
        const bytes = new Uint8Array([...head, ...rest]);
        const { view, highest } = watched(bytes);
        const info = sniffImage(view);
        expect(highest()).toBeLessThan(bytes.length);
        if (info?.width != null) expect(info.width).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('base64Head', () => {
  it('decodes exactly the first bytes, as a full decode would', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(250), (bytes, max) => {
        const b64 = Buffer.from(bytes).toString('base64');
        expect(Buffer.from(base64Head(b64, max))).toEqual(
          Buffer.from(bytes).subarray(0, Math.min(max, bytes.length)),
        );
      }),
    );
  });

  it('reads only the characters the bytes asked for need, and stops at one not base64', () => {
    const b64 = Buffer.alloc(3 * 1024 * 1024, 7).toString('base64');
    let highest = -1;
    const spy = Object.assign(new String(b64), {
      charCodeAt(i: number) {
        highest = Math.max(highest, i);
        return b64.charCodeAt(i);
      },
    }) as unknown as string;
    expect(base64Head(spy, 64)).toHaveLength(64);
    expect(highest).toBeLessThan(Math.ceil((64 * 4) / 3) + 1);
    expect(Array.from(base64Head('AAE!CAgI', 10))).toEqual([0, 1]);
    expect(base64Head('€€€€', 10)).toHaveLength(0);
  });
});

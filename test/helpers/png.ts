import { crc32, deflateSync } from 'node:zlib';

// A real PNG file (signature, IHDR, IDAT, IEND, each with its CRC) of one colour, so tests send
// and read images any decoder accepts, at any size, without fixture files; `noisePng` is one that
// does not compress (a file of about width × height × 3 bytes).

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function makePng(
  width: number,
  height: number,
  rgb: [number, number, number] = [255, 0, 0],
  pixels?: (x: number, y: number) => [number, number, number],
) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const rows = Array.from({ length: height }, (_, y) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(pixels?.(x, y) ?? rgb, 1 + x * 3);
    return row;
  });
  const raw = Buffer.concat(rows);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of pseudo-random pixels (seeded: the same bytes every run) that deflate cannot shrink. */
export function noisePng(width: number, height: number): Buffer {
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed & 255;
  };
  return makePng(width, height, [0, 0, 0], () => [next(), next(), next()]);
}

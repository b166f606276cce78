import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import {
  RECORD_HEAD_BYTES,
  RECORD_MARK,
  RECORD_MAX_BYTES,
  ChannelFrameReader,
  readChannelFrames,
  writeLineFrame,
  writeRecord,
} from '../../../electron/host/remote/channel-frames';
import { binaryShellOutput } from '../../../electron/web/shell-binary-frame';
import { decodeShellOutput } from '../../../shared/protocol/shell-binary';

// The SSH channel between the app and its remote part carries JSON lines and, for a console's
// output, binary records (channel-frames.ts). The channel may cut its bytes anywhere: inside a
// record's head, inside a multi-byte UTF-8 character, inside a JSON line. Whatever the cuts, each
// frame must arrive whole, once, in the order written, and a console's text exactly as it was.

type Sent = { json: unknown } | { sub: number; cursor: number; text: string };

/** The bytes the writers put on a stream for `frames`. */
async function written(frames: Sent[]): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (d: Buffer) => parts.push(d));
  for (const f of frames) {
    if ('json' in f) {
      writeLineFrame(out, f.json);
      continue;
    }
    const message = binaryShellOutput(
      {
        t: 'event',
        sub: f.sub,
        data: { type: 'shell_output', shell_id: 'x', cursor: f.cursor, data: f.text },
      },
      'shell:s:x',
    );
    writeRecord(out, message!);
  }
  out.end();
  await new Promise((r) => out.once('end', r));
  return Buffer.concat(parts);
}

/** What a reader hands over when `bytes` arrive cut at `cuts`: JSON frames, and records decoded. */
async function received(bytes: Buffer, cuts: number[]): Promise<{ got: Sent[]; bad: string[] }> {
  const input = new PassThrough();
  const got: Sent[] = [];
  const bad: string[] = [];
  readChannelFrames(input, {
    frame: (json) => got.push({ json }),
    record: (message) => {
      const output = decodeShellOutput(message)!;
      const text = Buffer.from(output.frame.bytes).toString('utf8');
      expect(text.length).toBe(output.frame.characters);
      got.push({ sub: output.sub, cursor: output.frame.cursor, text });
    },
    bad: (what) => bad.push(what),
    broken: (what) => bad.push(`broken: ${what}`),
  });
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const p of [...points, bytes.length]) {
    input.write(bytes.subarray(at, p));
    at = p;
  }
  input.end();
  await new Promise((r) => input.once('end', r));
  return { got, bad };
}

// Text a console prints: ASCII, controls, CR LF, two-, three- and four-byte UTF-8 characters.
const consoleText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', ' ', '\r', '\n', '\x1b', '\0', 'é', 'ж', '€', '中', '😀', '🏳️‍🌈'),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  ),
  maxLength: 300,
});
const frame: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({ json: fc.jsonValue() }),
  fc.record({
    sub: fc.nat({ max: 0xffff_ffff }),
    cursor: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
    text: consoleText,
  }),
);

describe('frames on the SSH channel', () => {
  it('arrive whole, once and in order however the channel cuts the bytes, console text unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (frames, cuts) => {
          const bytes = await written(frames);
          const { got, bad } = await received(bytes, cuts);
          expect(bad).toEqual([]);
          // JSON.stringify drops what JSON cannot hold (-0 becomes 0): compare as JSON does.
          expect(got).toEqual(
            frames.map((f) => ('json' in f ? { json: JSON.parse(JSON.stringify(f.json)) } : f)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arrive whole when the channel hands over one byte at a time', async () => {
    const frames: Sent[] = [
      { json: { t: 'result', id: 1, ok: true, value: 'ünïcödé\n' } },
      { sub: 7, cursor: 65_536, text: '😀 中文 €\r\n'.repeat(50) },
      { json: { t: 'event', sub: 2, data: {} } },
    ];
    const bytes = await written(frames);
    const { got } = await received(
      bytes,
      Array.from({ length: bytes.length }, (_, i) => i),
    );
    expect(got).toEqual(frames);
  });

  it('says which line was not JSON and goes on with the next frame', async () => {
    const bytes = Buffer.concat([Buffer.from('not json\n'), await written([{ json: { ok: 1 } }])]);
    const { got, bad } = await received(bytes, [3]);
    expect(bad).toEqual(['not a JSON frame: not json']);
    expect(got).toEqual([{ json: { ok: 1 } }]);
  });

  it('stops at a record longer than any the remote part writes, saying so', async () => {
    const head = Buffer.alloc(RECORD_HEAD_BYTES);
    head.writeUInt8(RECORD_MARK, 0);
    head.writeUInt32LE(RECORD_MAX_BYTES + 1, 1);
    const bytes = Buffer.concat([head, await written([{ json: { after: true } }])]);
    const { got, bad } = await received(bytes, []);
    expect(bad).toEqual([
      `broken: a binary record of ${RECORD_MAX_BYTES + 1} bytes (at most ${RECORD_MAX_BYTES})`,
    ]);
    expect(got).toEqual([]);
  });

  it('stops at a line longer than any the remote part writes instead of buffering it without end', () => {
    // A hostile host's bytes with no newline: held up to the cap, then dropped with the reason.
    const broken: string[] = [];
    const got: unknown[] = [];
    const reader = new ChannelFrameReader(
      {
        frame: (f) => got.push(f),
        record: () => undefined,
        bad: () => undefined,
        broken: (w) => broken.push(w),
      },
      1000,
    );
    reader.push(Buffer.from('{"ok":1}\n'));
    for (let i = 0; i < 20; i++) reader.push(Buffer.alloc(100, 0x61));
    reader.push(Buffer.from('\n{"after":true}\n'));
    expect(got).toEqual([{ ok: 1 }]);
    expect(broken).toEqual(['a line of more than 1000 bytes with no end']);
  });
});

import { describe, expect, it } from 'vitest';
import { readSse } from '../../../electron/host/models/sse';

function stream(chunks: string[], endOpen = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      if (!endOpen) c.close();
    },
  });
}

async function all(s: ReadableStream<Uint8Array>, idleMs = 1000) {
  const out = [];
  for await (const e of readSse(s, idleMs, 'test')) out.push(e);
  return out;
}

describe('readSse', () => {
  it('parses events split across chunks anywhere, with CRLF, comments and multi-line data', async () => {
    const events = await all(
      stream([
        'event: a\r\nda',
        'ta: {"x"',
        ':1}\r\n\r\n: comment\n\nda',
        'ta: line1\ndata: line2\n\n',
        'data: tail',
      ]),
    );
    expect(events).toEqual([
      { event: 'a', data: '{"x":1}' },
      { event: 'message', data: 'line1\nline2' },
      { event: 'message', data: 'tail' },
    ]);
  });

  it('a stream that goes silent fails as a network error instead of hanging', async () => {
    await expect(all(stream(['data: one\n\n'], true), 50)).rejects.toMatchObject({
      code: 'network',
    });
  });
});

import { describe, expect, test } from 'vitest';
import { RingBuffer } from '../../../electron/host/shells/ring-buffer';

describe('RingBuffer', () => {
  test('a read with a cursor returns only what came after it, and the new cursor', () => {
    const ring = new RingBuffer(1000);
    ring.append('hello ');
    const first = ring.read();
    expect(first).toEqual({ text: 'hello ', from: 0, to: 6, missed: 0 });
    ring.append('world');
    expect(ring.read(first.to)).toEqual({ text: 'world', from: 6, to: 11, missed: 0 });
    expect(ring.read(ring.end).text).toBe('');
  });

  test('evicted output is reported as missed characters and the read starts at the oldest retained', () => {
    const ring = new RingBuffer(10);
    ring.append('0123456789');
    ring.append('abcde');
    expect(ring.start).toBe(5);
    expect(ring.end).toBe(15);
    const slice = ring.read(2);
    expect(slice.missed).toBe(3);
    expect(slice.text).toBe('56789abcde');
    expect(slice.to).toBe(15);
  });

  test('cursors count every character ever written, across many small appends and evictions', () => {
    const ring = new RingBuffer(64);
    let all = '';
    for (let i = 0; i < 5000; i++) {
      const piece = `${i},`;
      ring.append(piece);
      all += piece;
    }
    expect(ring.end).toBe(all.length);
    expect(ring.read().text).toBe(all.slice(-64));
    expect(ring.read(all.length - 10).text).toBe(all.slice(-10));
  });

  test('large chunks are sliced by absolute position, with a limit', () => {
    const ring = new RingBuffer(100_000);
    const chunks = Array.from({ length: 8 }, (_, i) => String.fromCharCode(97 + i).repeat(20_000));
    for (const c of chunks) ring.append(c);
    const all = chunks.join('');
    expect(ring.start).toBe(all.length - 100_000);
    const slice = ring.read(ring.start + 19_990, 30);
    expect(slice.text).toBe(all.slice(ring.start + 19_990, ring.start + 20_020));
    expect(slice.to - slice.from).toBe(30);
  });

  test('one append larger than the capacity keeps only its tail', () => {
    const ring = new RingBuffer(5);
    ring.append('abc');
    ring.append('0123456789');
    expect(ring.end).toBe(13);
    expect(ring.read()).toEqual({ text: '56789', from: 8, to: 13, missed: 0 });
    expect(ring.read(0).missed).toBe(8);
  });

  test('past 16M characters the evicted chunk slots are compacted away: bookkeeping stays bounded', () => {
    const ring = new RingBuffer(1_000_000);
    const piece = 'x'.repeat(16_384);
    for (let i = 0; i < 3000; i++) ring.append(`${i % 10}${piece.slice(1)}`);
    expect(ring.end).toBe(3000 * 16_384);
    // Live chunks: about capacity / chunk size (62); evicted slots are dropped past 1024.
    expect(ring.slots).toBeLessThan(1024 + 2 * Math.ceil(1_000_000 / 16_384));
    const tail = ring.read(ring.end - 16_384);
    expect(tail.text).toBe(`9${piece.slice(1)}`);
    expect(ring.read().from).toBe(ring.end - 1_000_000);
  });
});

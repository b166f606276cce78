import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { OutputBatcher } from '../../../electron/host/shells/output-batcher';
import { RingBuffer } from '../../../electron/host/shells/ring-buffer';

// The owner of a shell's output joins the reads of one event-loop turn (output-batcher.ts). What
// must hold whatever the reads look like: every character arrives once, in order, the cursor only
// goes forward, and what arrived is delivered by the end of the turn without waiting for more.

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The reads of a shell: chunks of text, each followed by a turn of the loop or not. */
const reads = fc.array(
  fc.record({ text: fc.string({ unit: 'binary', maxLength: 300 }), endsTurn: fc.boolean() }),
  { maxLength: 60 },
);

describe('output batcher', () => {
  test('any split of the output into reads and turns delivers the same characters in order, with cursors that only go forward', async () => {
    await fc.assert(
      fc.asyncProperty(reads, fc.integer({ min: 1, max: 500 }), async (chunks, max) => {
        const ring = new RingBuffer(1_000_000);
        const cursors: number[] = [];
        const batcher = new OutputBatcher((text) => {
          expect(text.length).toBeGreaterThan(0);
          ring.append(text);
          cursors.push(ring.end);
        }, max);
        for (const chunk of chunks) {
          batcher.push(chunk.text);
          if (chunk.endsTurn) await turn();
        }
        await turn();
        const all = chunks.map((c) => c.text).join('');
        expect(ring.read().text).toBe(all);
        expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
        expect(new Set(cursors).size).toBe(cursors.length);
        expect(cursors.at(-1) ?? 0).toBe(all.length);
      }),
      { numRuns: 200 },
    );
  });

  test('the reads of one turn are delivered as one chunk when the turn ends', async () => {
    const got: string[] = [];
    const batcher = new OutputBatcher((text) => got.push(text), 1000);
    batcher.push('a');
    batcher.push('b');
    batcher.push('c');
    expect(got).toEqual([]);
    await turn();
    expect(got).toEqual(['abc']);
  });

  test('a single keystroke echo is delivered at the end of its turn, with nothing more arriving', async () => {
    const got: string[] = [];
    const batcher = new OutputBatcher((text) => got.push(text), 64_000);
    batcher.push('x');
    await turn();
    expect(got).toEqual(['x']);
  });

  test('a batch reaching the size limit goes at once, within the turn', () => {
    const got: string[] = [];
    const batcher = new OutputBatcher((text) => got.push(text), 10);
    batcher.push('12345');
    batcher.push('67890ab');
    expect(got).toEqual(['1234567890ab']);
  });

  test('flush delivers what is held at once, and a disposed batcher delivers nothing more', async () => {
    const got: string[] = [];
    const batcher = new OutputBatcher((text) => got.push(text), 1000);
    batcher.push('last');
    batcher.flush();
    expect(got).toEqual(['last']);
    batcher.push('dropped');
    batcher.dispose();
    await turn();
    expect(got).toEqual(['last']);
  });
});

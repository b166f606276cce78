import { appendFileSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LINE_INDEX_STRIDE,
  LineIndexCache,
  type LineIndex,
} from '../../../electron/host/fs/line-index';
import { readLineWindow } from '../../../electron/host/fs/line-window';
import { ScanBound } from '../../../electron/host/fs/scan-bound';
import { tempDir } from '../../helpers/temp';

// Windowed reads over the chunked scanner: lines that straddle chunk boundaries, windows past
// index checkpoints, and a warm index giving the same answer as a cold scan.

let cleanup: () => void;
afterEach(() => cleanup?.());

async function readAt(
  file: string,
  req: Parameters<typeof readLineWindow>[2],
  index: Parameters<typeof readLineWindow>[3],
): ReturnType<typeof readLineWindow> {
  const handle = await open(file, 'r');
  try {
    return await readLineWindow(handle, (await handle.stat()).size, req, index);
  } finally {
    await handle.close();
  }
}

function fresh(): LineIndex {
  return { offsets: [0], reached: { line: 0, pos: 0 }, totalLines: null };
}

describe('readLineWindow', () => {
  it('returns the same lines as a split of the whole file, across 1 MiB chunk boundaries', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lines = Array.from({ length: 30_000 }, (_, i) => `${i}:${'z'.repeat(i % 137)}`);
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, lines.join('\n') + '\n');
    const index = fresh();
    for (const offset of [0, 1, 4095, 4096, 4097, 12_345, 29_990]) {
      const w = await readAt(
        file,
        { offset, limit: 20, maxLineBytes: 10_000, maxWindowBytes: 1e9 },
        index,
      );
      expect(w.totalLines).toBe(30_000);
      expect(w.lines.map((l) => l.text)).toEqual(lines.slice(offset, offset + 20));
    }
    expect(index.offsets.length).toBe(Math.ceil(30_000 / LINE_INDEX_STRIDE));
    const cold = await readAt(
      file,
      { offset: 20_000, limit: 5, maxLineBytes: 10_000, maxWindowBytes: 1e9 },
      fresh(),
    );
    const warm = await readAt(
      file,
      { offset: 20_000, limit: 5, maxLineBytes: 10_000, maxWindowBytes: 1e9 },
      index,
    );
    expect(warm).toEqual(cold);
  });

  it('keeps only maxLineBytes of a huge line and reports the rest as cut', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, `a\n${'q'.repeat(3_000_000)}\nb\n`);
    const w = await readAt(
      file,
      { offset: 0, limit: 10, maxLineBytes: 100, maxWindowBytes: 1e9 },
      fresh(),
    );
    expect(w.lines).toEqual([
      { text: 'a', cutBytes: 0 },
      { text: 'q'.repeat(100), cutBytes: 2_999_900 },
      { text: 'b', cutBytes: 0 },
    ]);
  });

  it('negative offsets count from the end, clamped at the start', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, 'a\nb\nc');
    expect(
      (
        await readAt(
          file,
          { offset: -2, limit: 10, maxLineBytes: 100, maxWindowBytes: 1e9 },
          fresh(),
        )
      ).lines.map((l) => l.text),
    ).toEqual(['b', 'c']);
    const all = await readAt(
      file,
      { offset: -99, limit: 10, maxLineBytes: 100, maxWindowBytes: 1e9 },
      fresh(),
    );
    expect(all.start).toBe(0);
    expect(all.lines).toHaveLength(3);
  });

  it('ends a window early once it holds maxWindowBytes, however large the limit', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, `${'w'.repeat(99)}\n`.repeat(10_000));
    const w = await readAt(
      file,
      { offset: 0, limit: 1e9, maxLineBytes: 1000, maxWindowBytes: 1000 },
      fresh(),
    );
    expect(w.lines).toHaveLength(11);
    expect(w.totalLines).toBe(10_000);
  });

  it('a window far in stops at the scan budget and a second read goes on from the index', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    const lines = Array.from({ length: 20_000 }, (_, i) => `row ${i}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const index = fresh();
    const req = { offset: 15_000, limit: 3, maxLineBytes: 100, maxWindowBytes: 1e9 };
    const first = await readAt(file, { ...req, budgetBytes: 64 << 10 }, index);
    expect(first.lines).toEqual([]);
    expect(first.totalLines).toBeNull();
    expect(first.reachedOnly).toBeGreaterThan(0);
    expect(first.reachedOnly).toBeLessThan(15_000);
    let w = first;
    for (let i = 0; i < 100 && w.reachedOnly !== undefined; i++)
      w = await readAt(file, { ...req, budgetBytes: 64 << 10 }, index);
    expect(w.lines.map((l) => l.text)).toEqual(lines.slice(15_000, 15_003));
    expect(w.more).toBe(true);
  });

  it('counts no further than the budget: the total of a bigger file is unknown', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, `${'x'.repeat(99)}\n`.repeat(10_000));
    const small = { maxLineBytes: 100, maxWindowBytes: 1e9 };
    const w = await readAt(file, { offset: 0, limit: 2, ...small, budgetBytes: 100_000 }, fresh());
    expect(w).toMatchObject({ start: 0, fromEnd: false, totalLines: null, more: true });
    expect(w.lines).toHaveLength(2);
    const all = await readAt(
      file,
      { offset: 0, limit: 2, ...small, budgetBytes: 2_000_000 },
      fresh(),
    );
    expect(all.totalLines).toBe(10_000);
  });

  it('the tail of a file too big to count is read backwards and numbered from the end', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    const lines = Array.from({ length: 50_000 }, (_, i) => `entry ${i} ${'.'.repeat(i % 50)}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const opts = { maxLineBytes: 1000, maxWindowBytes: 1e9, budgetBytes: 200_000 };
    for (const [offset, limit] of [
      [-100, 100],
      [-1, 5],
      [-300, 10],
      [-5000, 3],
    ] as const) {
      const index = fresh();
      const w = await readAt(file, { offset, limit, ...opts }, index);
      expect(w).toMatchObject({ start: offset, fromEnd: true, totalLines: null });
      const want = lines.slice(lines.length + offset, lines.length + offset + limit);
      expect(w.lines.map((l) => l.text)).toEqual(want);
      expect(w.more).toBe(offset + limit < 0);
      // The count got as far as the budget let it, and says so; the index remembers it.
      expect(w.countedTo!.line).toBeGreaterThan(0);
      expect(w.countedTo).toEqual(index.reached);
    }
    // Without a trailing newline the last line is still line -1.
    writeFileSync(file, 'x\n'.repeat(1000) + 'a\nb\nc');
    const w = await readAt(file, { offset: -2, limit: 2, ...opts, budgetBytes: 100 }, fresh());
    expect(w.lines.map((l) => l.text)).toEqual(['b', 'c']);
  });

  it('a call whose time is spent before its first read still reads the tail and its window', async () => {
    // What 20 reads at once of an 8 TiB file do to one of them: the others spend the process's
    // CPU, so the bound (and any grace after it) is gone before this call's first read returns.
    class Starved extends ScanBound {
      override spent(): boolean {
        return true;
      }
      override orGrace(): ScanBound {
        return this;
      }
    }
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, 'head\n');
    truncateSync(file, 64 << 20);
    appendFileSync(file, '\nlast-but-one\nthe last line\n');
    const opts = { maxLineBytes: 1000, maxWindowBytes: 1e9, bound: new Starved() };
    const tail = await readAt(file, { offset: -2, limit: 2, ...opts }, fresh());
    expect(tail).toMatchObject({ start: -2, fromEnd: true, totalLines: null });
    expect(tail.lines.map((l) => l.text)).toEqual(['last-but-one', 'the last line']);
    const head = await readAt(file, { offset: 0, limit: 1, ...opts }, fresh());
    expect(head.lines.map((l) => l.text)).toEqual(['head']);
  });

  it('a tail read that reaches the start of the file numbers lines from the start', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    // One huge line makes the file bigger than the budget, but it has only four lines.
    writeFileSync(file, `${'h'.repeat(300_000)}\nb\nc\nd\n`);
    const opts = { maxLineBytes: 10, maxWindowBytes: 1e9, budgetBytes: 100_000 };
    const w = await readAt(file, { offset: -3, limit: 10, ...opts }, fresh());
    expect(w.lines.map((l) => l.text)).toEqual(['b', 'c', 'd']);
    expect(w.fromEnd).toBe(true);
    const all = await readAt(file, { offset: -10, limit: 10, ...opts, budgetBytes: 1e6 }, fresh());
    expect(all).toMatchObject({ start: 0, fromEnd: false, totalLines: 4, more: false });
    expect(all.lines[0]).toEqual({ text: 'h'.repeat(10), cutBytes: 299_990 });
    // A budget smaller than the huge line: the lines after it, and a note of how many were found.
    const part = await readAt(file, { offset: -10, limit: 10, ...opts }, fresh());
    expect(part.lines.map((l) => l.text)).toEqual(['b', 'c', 'd']);
    expect(part.reachedOnly).toBe(3);
  });

  it('the per-session index cache drops a file version once the file is rewritten', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, 'one\ntwo\n');
    const cache = new LineIndexCache();
    const indexOf = async (): Promise<LineIndex> => {
      const handle = await open(file, 'r');
      try {
        return await cache.get(file, handle, await handle.stat({ bigint: true }));
      } finally {
        await handle.close();
      }
    };
    const v1 = await indexOf();
    v1.totalLines = 2;
    expect((await indexOf()).totalLines).toBe(2);
    writeFileSync(file, 'ONE\nTWO\nthree\n');
    expect(await indexOf()).toEqual(fresh());
  });
});

import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LINE_INDEX_STRIDE, LineIndexCache } from '../../../electron/host/fs/line-index';
import { readLineWindow } from '../../../electron/host/fs/line-window';
import { tempDir } from '../../helpers/temp';

// Windowed reads over the chunked scanner: lines that straddle chunk boundaries, windows past
// index checkpoints, and a warm index giving the same answer as a cold scan.

let cleanup: () => void;
afterEach(() => cleanup?.());

async function readAt(
  file: string,
  req: Parameters<typeof readLineWindow>[1],
  index: Parameters<typeof readLineWindow>[2],
): ReturnType<typeof readLineWindow> {
  const handle = await open(file, 'r');
  try {
    return await readLineWindow(handle, req, index);
  } finally {
    await handle.close();
  }
}

function fresh(): { offsets: number[]; totalLines: number | null } {
  return { offsets: [0], totalLines: null };
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

  it('the per-session index cache drops a file version once the file changes', () => {
    const cache = new LineIndexCache();
    const v1 = cache.get('/f', 'v1');
    v1.totalLines = 10;
    expect(cache.get('/f', 'v1').totalLines).toBe(10);
    expect(cache.get('/f', 'v2').totalLines).toBeNull();
    expect(cache.get('/f', 'v1').totalLines).toBeNull();
  });
});

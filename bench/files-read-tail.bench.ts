import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { ReadState } from '../electron/host/tools/read-state';
import { readFileTool } from '../electron/host/tools/read-file';
import type { ToolContext } from '../electron/host/tools/tool';
import { fmt, report, timed } from './report';

// read_file's window at the end of a 1 GiB file against `tail -n 100` on the same file, plus the
// memory the read needed. Cold: the first read of the file counts its lines (line numbers need
// the total). Warm: the session's line index seeks straight to the window.

const FILE_BYTES = 1024 * 1024 * 1024;
const WINDOW = 100;
const RUNS = 5;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-read-'));
const file = join(dir, 'huge.log');

function ctx(readState: ReadState): ToolContext {
  return {
    root: dir,
    sessionId: 's_bench',
    agentId: 'root',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services: { readState },
    emit: async () => undefined,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

try {
  const fd = openSync(file, 'w');
  const chunk =
    Array.from(
      { length: 10_000 },
      (_, i) => `2024-01-01T00:00:00Z INFO request ${i} served in ${i % 997} ms ${'.'.repeat(40)}`,
    ).join('\n') + '\n';
  for (let written = 0; written < FILE_BYTES; written += chunk.length) writeSync(fd, chunk);
  closeSync(fd);
  execFileSync('tail', ['-n', String(WINDOW), file]); // warm the page cache for both sides

  const tailMs: number[] = [];
  for (let i = 0; i < RUNS; i++)
    tailMs.push((await timed(() => execFileSync('tail', ['-n', String(WINDOW), file]))).ms);

  const args = { path: 'huge.log', offset: -WINDOW, limit: WINDOW };
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const coldMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    coldMs.push(
      (await timed(() => readFileTool.run(ctx(new ReadState({ dedup: false })), args))).ms,
    );
  }
  clearInterval(sampler);
  const warmState = new ReadState({ dedup: false });
  const first = await readFileTool.run(ctx(warmState), args);
  const warmMs: number[] = [];
  for (let i = 0; i < RUNS; i++)
    warmMs.push((await timed(() => readFileTool.run(ctx(warmState), args))).ms);
  const total = Number(first.total_lines);
  const fwdMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    fwdMs.push(
      (
        await timed(() =>
          readFileTool.run(ctx(new ReadState({ dedup: false })), {
            path: 'huge.log',
            offset: total - WINDOW,
            limit: WINDOW,
          }),
        )
      ).ms,
    );
  }

  const tail = median(tailMs);
  console.log(
    `file: ${fmt(FILE_BYTES / 1024 / 1024)} MiB, ${fmt(total)} lines; window ${WINDOW} lines (${fmt(String(first.content).length)} chars)`,
  );
  report(
    'read_file last 100 lines, cold (counts lines)',
    median(coldMs),
    'ms',
    tail,
    'ms',
    'tail -n 100 incl. spawn',
  );
  report(
    'read_file last 100 lines, warm (session line index)',
    median(warmMs),
    'ms',
    tail,
    'ms',
    'tail -n 100 incl. spawn',
  );
  report(
    'read_file offset=total-100, cold',
    median(fwdMs),
    'ms',
    tail,
    'ms',
    'tail -n 100 incl. spawn',
  );
  report(
    'read_file peak RSS growth while reading',
    (peak - rssBefore) / 1024 / 1024,
    'MiB',
    FILE_BYTES / 1024 / 1024,
    'MiB',
    'file size',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

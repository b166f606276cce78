import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { ReadState } from '../electron/host/tools/read-state';
import { readFileTool } from '../electron/host/tools/read-file';
import type { ToolContext } from '../electron/host/tools/tool';
import { fmt, report } from './report';
import { median, warmMcp } from './fs-bench';

// Issue #18's read_file rows, each against a reference measured here on the same files:
//
// 1. The last 100 lines of a 1 GiB log that grows between reads, by a call to a warm `mewbo mcp`,
//    against `tail -n 100` on the same file. The same work: one request from another process,
//    answered with the file's last 100 lines over a pipe; tail seeks to the end and reads
//    backwards, and read_file must too (the log changed since the last read, so no index from
//    an earlier read helps; lines the tail read could not count are numbered from the end).
// 2. A window of 100 lines in the middle of a 1 GiB file against the same window in the middle
//    of a 10 MiB file, in-process with the session's line index warm on both: the reference is
//    the tool itself on a small file, so the ratio shows the cost does not grow with the file
//    (no whole-file read: the window seeks from the nearest checkpoint and counts no further).
// 3. 20 reads at once of an 8 TiB sparse log (issue #14 route 3): the time until all answered
//    against the 2 s the issue allows.

const GIB = 1024 ** 3;
const WINDOW = 100;
const RUNS = 15;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-read-'));
const home = join(dir, 'home');
mkdirSync(home);

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

const logLine = (i: number): string =>
  `2024-01-01T00:00:00Z INFO request ${i} served in ${i % 997} ms ${'.'.repeat(40)}\n`;

/** A file of `bytes` of ~100-byte log lines; returns its line count. */
function writeLog(path: string, bytes: number): number {
  const lines = Array.from({ length: 10_000 }, (_, i) => logLine(i)).join('');
  const fd = openSync(path, 'w');
  let n = 0;
  for (let written = 0; written < bytes; written += lines.length, n += 10_000) writeSync(fd, lines);
  closeSync(fd);
  return n;
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

try {
  // 1. Tail of a growing 1 GiB log.
  const big = join(dir, 'big.log');
  const bigLines = writeLog(big, GIB);
  execFileSync('tail', ['-n', String(WINDOW), big]); // page cache warm for both sides
  const mcp = await warmMcp(dir, home);
  const ours: number[] = [];
  const tails: number[] = [];
  let sample: Record<string, unknown> = {};
  try {
    for (let i = 0; i < RUNS; i++) {
      appendFileSync(big, logLine(bigLines + i)); // grown since the last read: a new version
      ours.push(
        await timed(async () => {
          sample = await mcp.call('read_file', { path: 'big.log', offset: -WINDOW, limit: WINDOW });
        }),
      );
      appendFileSync(big, logLine(bigLines + i));
      tails.push(await timed(() => execFileSync('tail', ['-n', String(WINDOW), big])));
    }
  } finally {
    await mcp.close();
  }
  const lines = String(sample.content).split('\n');
  if (lines.length !== WINDOW || sample.total_lines !== null)
    console.log(
      `UNEXPECTED tail shape: ${lines.length} lines, total ${String(sample.total_lines)}`,
    );
  report(
    'read_file last 100 lines of a growing 1 GiB log via warm mewbo mcp vs tail -n 100 (goal <= 1.5x)',
    median(ours),
    'ms',
    median(tails),
    'ms',
    'tail -n 100',
  );

  // 2. Middle window, 1 GiB against 10 MiB, index warm.
  const small = join(dir, 'small.log');
  const smallLines = writeLog(small, 10 * 1024 * 1024);
  const middle = async (
    file: string,
    total: number,
  ): Promise<{ ms: number; coldCalls: number }> => {
    const state = new ReadState({ dedup: false });
    // The same distance past an index checkpoint (every 4096 lines) in both files.
    const offset = Math.floor(total / 2 / 4096) * 4096 + 2048;
    const args = { path: file, offset, limit: WINDOW };
    // Cold: each call scans at most 64 MiB; the index remembers, so calls go on until reached.
    let coldCalls = 0;
    for (;;) {
      coldCalls++;
      const p = await readFileTool.run(ctx(state), args);
      if (String(p.content) !== '') break;
    }
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) ms.push(await timed(() => readFileTool.run(ctx(state), args)));
    return { ms: median(ms), coldCalls };
  };
  const mid1g = await middle('big.log', bigLines);
  const mid10m = await middle('small.log', smallLines);
  console.log(
    `middle of 1 GiB reached cold in ${mid1g.coldCalls} calls (each scans at most 64 MiB); 10 MiB in ${mid10m.coldCalls}`,
  );
  report(
    'read_file middle window, 1 GiB vs 10 MiB file (warm index) (goal <= 3x)',
    mid1g.ms,
    'ms',
    mid10m.ms,
    'ms',
    'same window of a 10 MiB file',
  );

  // 3. 20 reads at once of an 8 TiB sparse file with a text header and tail.
  const sparse = join(dir, 'sparse.log');
  writeFileSync(sparse, Array.from({ length: 300 }, (_, i) => logLine(i)).join(''));
  truncateSync(sparse, 8 * 1024 ** 4);
  appendFileSync(sparse, '\nlast line\n');
  const all = await timed(() =>
    Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        readFileTool.run(ctx(new ReadState({ dedup: false })), {
          path: 'sparse.log',
          offset: i % 2 ? -WINDOW : 0,
          limit: i % 2 ? WINDOW : 2000,
        }),
      ),
    ),
  );
  report(
    'read_file 20 at once on an 8 TiB sparse log, until all answered vs 2 s (goal <= 1)',
    all,
    'ms',
    2000,
    'ms',
    'the allowed',
  );
  console.log(`(files: 1 GiB = ${fmt(bigLines)} lines, 10 MiB = ${fmt(smallLines)} lines)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

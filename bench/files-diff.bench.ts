import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { unifiedDiff } from '../electron/host/fs/unified-diff';
import { fmt, report, timed } from './report';

// The edit tools' unified diff on a 50,000-line file against GNU `diff -u` on the same two files
// (its time includes process start, as a tool call's would not). 100 changes is the case the
// issue names; 10,000 changes shows the bound holding where unbounded Myers (jsdiff) takes long.

const LINES = 50_000;
const RUNS = 5;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-diff-'));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function gnuDiff(a: string, b: string): string {
  try {
    return execFileSync('diff', ['-u', a, b], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    return String((err as { stdout: string }).stdout);
  }
}

async function measure(changes: number, withJsdiff: boolean): Promise<void> {
  const base = Array.from(
    { length: LINES },
    (_, i) => `    const value${i} = compute(${i}, "${(i * 2654435761) % 1000}");`,
  );
  const edited = base.slice();
  const step = Math.floor(LINES / changes);
  for (let i = 0; i < changes; i++)
    edited[i * step + Math.floor(step / 2)] = `    const changed${i} = other(${i});`;
  const before = base.join('\n') + '\n';
  const after = edited.join('\n') + '\n';
  const a = join(dir, `a${changes}`);
  const b = join(dir, `b${changes}`);
  writeFileSync(a, before);
  writeFileSync(b, after);
  const ours: number[] = [];
  const gnu: number[] = [];
  let counts = '';
  for (let i = 0; i < RUNS; i++) {
    const r = await timed(() => unifiedDiff(before, after, { path: 'f' }));
    ours.push(r.ms);
    counts = `+${r.value.additions} -${r.value.deletions}`;
    gnu.push((await timed(() => gnuDiff(a, b))).ms);
  }
  const gnuOut = gnuDiff(a, b);
  const gnuCounts = `+${gnuOut.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length} -${gnuOut.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length}`;
  console.log(`${fmt(LINES)} lines, ${fmt(changes)} changes: ours ${counts}, diff -u ${gnuCounts}`);
  report(
    `unified diff, ${changes} changes`,
    median(ours),
    'ms',
    median(gnu),
    'ms',
    'diff -u incl. spawn',
  );
  if (withJsdiff) {
    const js = await timed(() => createTwoFilesPatch('a', 'b', before, after));
    report(
      `unified diff, ${changes} changes`,
      median(ours),
      'ms',
      js.ms,
      'ms',
      'jsdiff createTwoFilesPatch, unbounded',
    );
  }
}

try {
  await measure(100, true);
  await measure(10_000, false);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

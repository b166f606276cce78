import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { expect, test } from 'vitest';
import { collectStartUpGarbage } from '../../../electron/host/system/startup-heap';

// serve's start-up hold (system/startup-heap.ts) is worth 4 MiB of an idle host only if V8 obeys
// it: a flag renamed by a Node upgrade would be accepted silently and hold nothing. A child Node
// runs the module's own code around a function made hot, and V8 says how it compiled it.

const source = readFileSync(
  new URL('../../../electron/host/system/startup-heap.ts', import.meta.url),
  'utf8',
);
const TURBOFANNED = 1 << 6; // V8's OptimizationStatus::kTurboFanned

test('functions made hot during the hold are not compiled by TurboFan, and are once it ends', () => {
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs' });
  const script = `
    const module = { exports: {} };
    (function (exports, module, require) { ${code} })(module.exports, module, require);
    function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
    const release = module.exports.holdV8GrowthDuringStartup();
    for (let i = 0; i < 20000; i++) hot(100);
    const held = %GetOptimizationStatus(hot);
    const ended = [release(), release()];
    for (let i = 0; i < 20000; i++) hot(100);
    console.log(JSON.stringify({ held, ended, released: %GetOptimizationStatus(hot) }));
  `;
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', '-e', script],
    { encoding: 'utf8' },
  );
  const { held, ended, released } = JSON.parse(out) as {
    held: number;
    ended: boolean[];
    released: number;
  };
  expect(held & TURBOFANNED).toBe(0);
  // The first call ends start-up; a later one (another sign of work) does nothing.
  expect(ended).toEqual([true, false]);
  expect(released & TURBOFANNED).toBe(TURBOFANNED);
});

test('start-up garbage is collected in one forced full collection, and no later context has gc', async () => {
  const forcedMajor: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const { kind, flags } = (e as PerformanceEntry & { detail: { kind: number; flags: number } })
        .detail;
      if (
        kind === constants.NODE_PERFORMANCE_GC_MAJOR &&
        flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED
      )
        forcedMajor.push(e);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    collectStartUpGarbage();
    // GC entries are delivered after the collection, on a later turn.
    for (let i = 0; i < 200 && forcedMajor.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(forcedMajor).toHaveLength(1);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  } finally {
    observer.disconnect();
  }
});

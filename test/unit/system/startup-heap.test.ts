import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { expect, test } from 'vitest';

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
    release();
    for (let i = 0; i < 20000; i++) hot(100);
    console.log(JSON.stringify({ held, released: %GetOptimizationStatus(hot) }));
  `;
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', '-e', script],
    { encoding: 'utf8' },
  );
  const { held, released } = JSON.parse(out) as { held: number; released: number };
  expect(held & TURBOFANNED).toBe(0);
  expect(released & TURBOFANNED).toBe(TURBOFANNED);
});

// `npm test`: typecheck, lint, then every test suite (unit + integration + reliability under
// vitest, e2e under Playwright in Debian's Chromium). Ends with one line:
// `tests: N passed, N failed[, N skipped]`, and exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}/test-results`;
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);

const npx = (args, env = {}) =>
  spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ??
  1;

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

function step(name, fn) {
  if (!want(name)) return;
  console.log(`\n=== ${name} ===`);
  const status = fn();
  if (status !== 0) problems.push(`${name} exited ${status}`);
}

step(
  'build',
  () =>
    spawnSync(process.execPath, ['build/build.mjs'], { cwd: root, stdio: 'inherit' }).status ?? 1,
);
step(
  'typecheck',
  () => spawnSync('npm', ['run', '-s', 'typecheck'], { cwd: root, stdio: 'inherit' }).status ?? 1,
);
step(
  'lint',
  () => spawnSync('npm', ['run', '-s', 'lint'], { cwd: root, stdio: 'inherit' }).status ?? 1,
);

step('vitest', () => {
  const file = `${out}/vitest.json`;
  rmSync(file, { force: true });
  const status = npx(
    [
      'vitest',
      'run',
      '--config',
      'test/vitest.config.ts',
      '--reporter=default',
      `--reporter=json`,
      `--outputFile.json=${file}`,
    ],
    { MEWBO_SKIP_BUILD: '1' },
  );
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else failed += 1;
  return status;
});

step('e2e', () => {
  const file = `${out}/playwright.json`;
  rmSync(file, { force: true });
  const status = npx(['playwright', 'test', '--config', 'test/e2e/playwright.config.ts'], {
    PW_JSON_OUTPUT: file,
  });
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8')).stats;
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
  } else failed += 1;
  return status;
});

if (problems.length) console.log(`\nproblems: ${problems.join('; ')}`);
const failedTotal = failed + (problems.length && failed === 0 ? problems.length : 0);
console.log(
  `tests: ${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(problems.length || failed ? 1 : 0);

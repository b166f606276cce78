// `npm test`: typecheck, lint, then every test suite (unit + integration + reliability under
// vitest, e2e under Playwright in Debian's Chromium). Ends with one line:
// `tests: N passed, N failed[, N skipped]`, and exits non-zero if anything failed.
import { spawn, spawnSync } from 'node:child_process';
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
// The failed tests by name with the start of their error, printed again just above the last line:
// CI keeps only the end of a long log, and a count alone does not say what to look at.
const failures = [];
const firstLines = (text) =>
  String(text ?? '')
    .split('\n')
    .slice(0, 6)
    .join('\n    ');

function step(name, fn) {
  if (!want(name)) return;
  console.log(`\n=== ${name} ===`);
  const status = fn();
  if (status !== 0) problems.push(`${name} exited ${status}`);
}

// Build, typecheck and lint read the sources and write nothing the others read (dist/ is in
// neither's files), and tsc, eslint and prettier each use one core: on two cores they run at once,
// output held back and printed whole, step by step in this order.
const prelude = [
  ['build', process.execPath, ['build/build.mjs']],
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
].filter(([name]) => want(name));
const held = prelude.map(
  ([name, command, args]) =>
    new Promise((resolve) => {
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (d) => output.push(d));
      child.stderr.on('data', (d) => output.push(d));
      child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
      child.on('close', (code) => resolve({ name, status: code ?? 1, output }));
    }),
);
for (const { name, status, output } of await Promise.all(held)) {
  console.log(`\n=== ${name} ===`);
  process.stdout.write(Buffer.concat(output));
  if (status !== 0) problems.push(`${name} exited ${status}`);
}

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
    for (const file of r.testResults ?? []) {
      const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of tests)
        failures.push(`${name} > ${t.fullName}\n    ${firstLines(t.failureMessages?.[0])}`);
      if (file.status === 'failed' && tests.length === 0)
        failures.push(`${name}\n    ${firstLines(file.message)}`);
    }
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
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const s = report.stats;
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'unexpected') {
            const error = t.results?.at(-1)?.error?.message;
            failures.push(`${spec.file}:${spec.line} > ${spec.title}\n    ${firstLines(error)}`);
          }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
  } else failed += 1;
  return status;
});

if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (problems.length) console.log(`\nproblems: ${problems.join('; ')}`);
const failedTotal = failed + (problems.length && failed === 0 ? problems.length : 0);
console.log(
  `tests: ${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(problems.length || failed ? 1 : 0);

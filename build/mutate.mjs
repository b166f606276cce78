// `npm run mutate [module...]`: StrykerJS over the modules that guard data and security, one
// module at a time with at most 2 test runners (the machine is shared). Each module names its own
// test files: only those run (the dry run and every mutant; see test/vitest.mutate.config.ts), so
// a module is judged by the tests written for it, and the run stays short. Tests that drive the built dist/cli.js cannot see a mutant (the
// bundle is not instrumented), so the lists hold the in-process tests.
//
// Incremental: each module keeps its results in reports/mutation/<module>.incremental.json (out of
// git); a rerun only tests mutants whose code or tests changed. `--force` reruns everything, and
// is what the README's figures come from: Stryker never reruns a module-level (static) mutant
// that survived once, whatever the tests became.
// Prints per module killed / survived / timeout / no coverage, the score and the time taken, then
// the lowest module. Not in CI and not in `npm test`: see README "Mutation testing".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const MODULES = {
  sandbox: {
    mutate: [
      'electron/host/sandbox/access-rights.ts',
      'electron/host/sandbox/deny-list.ts',
      'electron/host/sandbox/grant-plan.ts',
      'electron/host/sandbox/launcher.ts',
      'electron/host/sandbox/network-grant.ts',
      'electron/host/sandbox/policy-mounts.ts',
      'electron/host/sandbox/real-path.ts',
      'electron/host/sandbox/sandbox.ts',
      'electron/host/remote/host-worktree-grant.ts',
    ],
    tests: ['test/unit/sandbox/*.test.ts', 'test/unit/remote/host-worktree-grant.test.ts'],
  },
  fs: {
    mutate: [
      'electron/host/fs/atomic-write.ts',
      'electron/host/fs/safe-open.ts',
      'electron/host/fs/safe-path.ts',
    ],
    tests: ['test/unit/fs/atomic-write*.test.ts', 'test/unit/fs/safe-*.test.ts'],
  },
  store: {
    mutate: [
      'electron/host/store/event-log.ts',
      'electron/host/store/log-recovery.ts',
      'electron/host/store/atomic-json.ts',
      'electron/host/sessions/session-folders.ts',
    ],
    tests: ['test/unit/store/*.test.ts', 'test/unit/sessions/session-folders.test.ts'],
  },
  config: {
    mutate: [
      'electron/host/config/config-store.ts',
      'electron/host/config/read-config.ts',
      'electron/host/config/load-config.ts',
    ],
    tests: ['test/unit/config/*.test.ts'],
  },
  'devices-auth': {
    mutate: [
      'electron/host/devices/tokens.ts',
      'electron/host/devices/pairing-codes.ts',
      'electron/host/devices/rate-limiter.ts',
    ],
    tests: [
      'test/unit/devices/tokens.test.ts',
      'test/unit/devices/pairing-codes.test.ts',
      'test/unit/devices/rate-limiter.test.ts',
    ],
  },
  rpc: {
    mutate: ['electron/host/rpc/*.ts'],
    tests: ['test/unit/rpc/*.test.ts'],
  },
  // What a rewind does to the project's files (issue #25): restores through verified descriptors,
  // deletes that never follow a link, nothing half-done when staging fails.
  checkpoints: {
    mutate: ['electron/host/checkpoints/restore.ts'],
    tests: ['test/unit/checkpoints/restore.test.ts'],
  },
  // The web host's login (issue 25 part 7): one-time codes, the login cookie, the proofs and
  // challenges of `mewbo login`.
  'web-login': {
    mutate: [
      'electron/web/login-codes.ts',
      'electron/web/login-cookie.ts',
      'electron/web/login-proof.ts',
    ],
    tests: ['test/unit/web/*.test.ts'],
  },
  // The egress proxy's policy and what it parses (issue #25 part 1): decisions over plain facts,
  // and the strict reader of a destination's answer to a forwarded request, driven directly by
  // forwarded-response.test.ts (in test/unit/network/) and through the proxy by its integration
  // tests and the kept-alive attack.
  network: {
    mutate: [
      'electron/host/network/address-kind.ts',
      'electron/host/network/domain-pattern.ts',
      'electron/host/network/forwarded-response.ts',
      'electron/host/network/network-policy.ts',
      'electron/host/network/proxy-target.ts',
    ],
    tests: [
      'test/unit/network/*.test.ts',
      'test/integration/network/egress-proxy.test.ts',
      'test/reliability/attacks/network-keepalive.test.ts',
    ],
  },
  // Workspace trust and the digest of the content it covers (issue #25 part 3).
  trust: {
    mutate: ['electron/host/trust/trusted-content.ts', 'electron/host/trust/workspace-trust.ts'],
    tests: ['test/unit/trust/*.test.ts'],
  },
  // The hooks of projects and of the user (issue #25 part 3): what a settings file's hooks
  // section loads, what a hook's answer decides, and which hooks start only confined (a project's:
  // never unconfined, also when nothing can confine it). session-hooks.ts, which only calls these
  // for a session's events, is left to the integration tests.
  hooks: {
    mutate: [
      'electron/host/hooks/hook-config.ts',
      'electron/host/hooks/hook-runner.ts',
      'electron/host/hooks/run-hook.ts',
    ],
    tests: ['test/unit/hooks/*.test.ts'],
  },
  // The rules' judge and the walk of bash's tree (issue #25 part 4). The folder is about 2,000
  // mutants, hours with one runner on the shared machine: run it file by file with --file and
  // --tests (README "Mutation testing" says which files were run, with which tests).
  rules: {
    mutate: [
      'electron/host/rules/match-rule.ts',
      'electron/host/rules/shell-pattern.ts',
      'electron/host/rules/permission-rules.ts',
      'electron/host/rules/bash-analysis.ts',
      'electron/host/rules/bash-words.ts',
      'electron/host/rules/bash-wrappers.ts',
      'electron/host/rules/bash-data-code.ts',
      'electron/host/rules/bash-builtins.ts',
    ],
    tests: [
      'test/unit/rules/bash-analysis.test.ts',
      'test/unit/rules/bash-data-code.test.ts',
      'test/unit/rules/bash-words.test.ts',
      'test/unit/rules/bash-wrappers.test.ts',
      'test/unit/rules/match-rule.test.ts',
      'test/unit/rules/call-gate.test.ts',
    ],
  },
};

function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  // --concurrency=N: test runners for this run (default from build/stryker.config.json: 2).
  const concurrency = args.find((a) => a.startsWith('--concurrency='))?.split('=')[1];
  // --file=PATH (one of the module's files) and --tests=GLOB narrow one module's run to one file
  // and the tests that exercise it: a file of a slow module is judged in minutes, not an hour.
  const file = args.find((a) => a.startsWith('--file='))?.slice('--file='.length);
  const testsOverride = args
    .filter((a) => a.startsWith('--tests='))
    .map((a) => a.slice('--tests='.length));
  const wanted = args.filter((a) => !a.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(MODULES);
  for (const name of names) {
    if (!MODULES[name])
      throw new Error(`unknown module ${name}; known: ${Object.keys(MODULES).join(', ')}`);
  }
  // What the global setup would build (the Landlock launcher the sandbox tests run, dist): once
  // here, so no mutant run rebuilds it.
  const built = spawnSync(process.execPath, ['build/build.mjs', '--node-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('build/build.mjs --node-only failed');
  const base = JSON.parse(readFileSync(join(root, 'build/stryker.config.json'), 'utf8'));
  mkdirSync(join(root, 'reports', 'mutation'), { recursive: true });
  if ((file || testsOverride.length) && names.length !== 1)
    throw new Error('--file and --tests narrow one module: name it');
  const rows = [];
  for (const name of names) {
    const module = MODULES[name];
    const covers = (m) => m === file || (m.endsWith('/*.ts') && `${dirname(file)}/*.ts` === m);
    if (file && !module.mutate.some(covers))
      throw new Error(`${file} is not among module ${name}'s files: ${module.mutate.join(', ')}`);
    const mutate = file ? [file] : module.mutate;
    const tests = testsOverride.length ? testsOverride : module.tests;
    // A narrowed run keeps its own results: its incremental file must not stand for the module's.
    const label = file ? `${name}.${basename(file, '.ts')}` : name;
    const report = join('reports', 'mutation', `${label}.json`);
    const config = join('reports', 'mutation', `${label}.config.json`);
    writeFileSync(
      join(root, config),
      JSON.stringify(
        {
          ...base,
          mutate,
          vitest: { configFile: 'test/vitest.mutate.config.ts', related: false },
          jsonReporter: { fileName: report },
          incremental: true,
          incrementalFile: join('reports', 'mutation', `${label}.incremental.json`),
          force,
          ...(concurrency ? { concurrency: Number(concurrency) } : {}),
        },
        null,
        2,
      ),
    );
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', config],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
        // Built above.
        env: { ...process.env, MEWBO_SKIP_BUILD: '1', MEWBO_MUTATE_TESTS: JSON.stringify(tests) },
      },
    );
    const minutes = (Date.now() - started) / 60000;
    if (r.status !== 0) {
      console.error(`${name}: stryker exited with ${r.status}`);
      process.exitCode = 1;
      continue;
    }
    rows.push({
      name: label,
      minutes,
      ...count(JSON.parse(readFileSync(join(root, report), 'utf8'))),
    });
  }
  if (!rows.length) return;
  console.log('\nmodule        score  killed survived timeout no-coverage  minutes');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(12)} ${r.score.toFixed(1).padStart(5)}% ${String(r.killed).padStart(7)} ${String(r.survived).padStart(8)} ${String(r.timeout).padStart(7)} ${String(r.noCoverage).padStart(11)} ${r.minutes.toFixed(1).padStart(8)}`,
    );
  }
  const lowest = rows.reduce((a, b) => (b.score < a.score ? b : a));
  console.log(`lowest module: ${lowest.name} ${lowest.score.toFixed(1)}% killed`);
}

/** Stryker's score: killed and timed-out mutants over all valid ones (no coverage counts against). */
function count(json) {
  const c = { killed: 0, survived: 0, timeout: 0, noCoverage: 0 };
  for (const file of Object.values(json.files))
    for (const m of file.mutants) {
      if (m.status === 'Killed') c.killed++;
      else if (m.status === 'Survived') c.survived++;
      else if (m.status === 'Timeout') c.timeout++;
      else if (m.status === 'NoCoverage') c.noCoverage++;
    }
  const total = c.killed + c.survived + c.timeout + c.noCoverage;
  return { ...c, score: total ? (100 * (c.killed + c.timeout)) / total : 100 };
}

main();

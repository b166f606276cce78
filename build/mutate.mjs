// `npm run mutate [module...]`: StrykerJS over the modules that guard data and security, one
// module at a time with concurrency 1 (the machine is shared), each mutant running only the tests
// related to its file (vitest `related`). Prints the score per module and the lowest. Not in CI:
// a full run takes long (see README).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MODULES = {
  sandbox: ['electron/host/sandbox/*.ts'],
  fs: ['electron/host/fs/*.ts'],
  sessions: ['electron/host/sessions/*.ts', 'electron/host/store/*.ts'],
  config: ['electron/host/config/*.ts'],
  'devices-auth': [
    'electron/host/devices/tokens.ts',
    'electron/host/devices/pairing-codes.ts',
    'electron/host/devices/rate-limiter.ts',
  ],
  rpc: ['electron/host/rpc/*.ts'],
};

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(MODULES);
const scores = [];
for (const name of names) {
  const globs = MODULES[name];
  if (!globs) throw new Error(`unknown module ${name}; known: ${Object.keys(MODULES).join(', ')}`);
  const report = join('reports', 'mutation', `${name}.json`);
  const started = Date.now();
  // One config per module: the shared settings plus what to mutate and where the report goes.
  const base = JSON.parse(readFileSync(join(root, 'build/stryker.config.json'), 'utf8'));
  mkdirSync(join(root, 'reports', 'mutation'), { recursive: true });
  const config = join('reports', 'mutation', `${name}.config.json`);
  writeFileSync(
    join(root, config),
    JSON.stringify({ ...base, mutate: globs, jsonReporter: { fileName: report } }, null, 2),
  );
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', config],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0) {
    console.error(`${name}: stryker exited with ${r.status}`);
    continue;
  }
  const json = JSON.parse(readFileSync(join(root, report), 'utf8'));
  let killed = 0;
  let total = 0;
  for (const file of Object.values(json.files))
    for (const m of file.mutants) {
      if (m.status === 'Ignored' || m.status === 'CompileError') continue;
      total++;
      if (m.status === 'Killed' || m.status === 'Timeout') killed++;
    }
  const score = total ? (100 * killed) / total : 100;
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  scores.push({ name, score });
  console.log(
    `mutation ${name}: ${score.toFixed(1)} (${killed} of ${total} mutants killed) in ${minutes} min`,
  );
}
if (scores.length) {
  const lowest = scores.reduce((a, b) => (b.score < a.score ? b : a));
  console.log(`lowest module: ${lowest.name} ${lowest.score.toFixed(1)}`);
}

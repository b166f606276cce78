// `npm run bench [name...]`: bundles bench/*.bench.ts with esbuild and runs each in its own Node
// process. Each prints `what: value unit (reference: value unit, ratio X.XX)` lines, the reference
// being measured in the same run.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (!files.length) {
  console.error(`no benchmark matches ${wanted.join(' ')}`);
  process.exit(2);
}
// Inside the repo so the bundles resolve node_modules like the sources do (ESM ignores NODE_PATH).
// A folder per run: worktrees share one node_modules, and a run removes its folder when done, so
// a shared one would lose the bundles of another lane's run still going.
const out = join(root, 'node_modules', '.cache', `mewbo-bench-${process.pid}`);
mkdirSync(out, { recursive: true });
let failed = 0;
try {
  for (const f of files) {
    const outfile = join(out, f.replace(/\.ts$/, '.mjs'));
    await build({
      absWorkingDir: root,
      entryPoints: [join('bench', f)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
      },
    });
    console.log(`\n## ${f}`);
    const r = spawnSync(process.execPath, ['--expose-gc', outfile], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    });
    if (r.status !== 0) failed++;
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// From a bundle (bench/run.mjs puts benchmarks under node_modules/.cache) import.meta.url is not
// this folder; benchmarks run from the repository root, so fall back to it.
const nextToMe = fileURLToPath(new URL('.', import.meta.url));
const here = existsSync(join(nextToMe, 'mcp-test-server.ts'))
  ? nextToMe
  : join(process.cwd(), 'test', 'helpers');
const sources = ['mcp-test-server.ts', 'mcp-tool-catalog.ts'].map((f) => join(here, f));

/**
 * Bundles mcp-test-server.ts (SDK and zod included) into one .mjs under the temp dir, named by a
 * hash of its sources so parallel test files share one build, and returns its path. Node 20 cannot
 * run TypeScript, hence the bundle.
 */
export async function buildMcpTestServer(): Promise<string> {
  const hash = createHash('sha1');
  for (const f of sources) hash.update(readFileSync(f));
  const outfile = join(tmpdir(), `mewbo-mcp-test-server-${hash.digest('hex').slice(0, 12)}.mjs`);
  if (existsSync(outfile)) return outfile;
  const tmp = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [sources[0]!],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
    },
  });
  renameSync(tmp, outfile);
  return outfile;
}

/** The published reference server, run from node_modules in stdio mode. */
export function serverEverythingEntry(): string {
  return join(
    here,
    '..',
    '..',
    'node_modules',
    '@modelcontextprotocol',
    'server-everything',
    'dist',
    'index.js',
  );
}

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lets a bundle's CommonJS dependencies call require() from ESM. */
export const REQUIRE_BANNER =
  "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);";

/**
 * Bundles `sources[0]` (dependencies included) into one .mjs under the temp dir, named by `name`
 * and a hash of `sources`, so parallel test files share one build and a changed source makes a
 * new one; written under a temporary name and renamed, so a reader never sees half a file. Node 20
 * cannot run TypeScript, hence the bundle.
 */
export async function bundleOnce(
  name: string,
  sources: readonly string[],
  banner?: string,
): Promise<string> {
  const hash = createHash('sha1');
  for (const f of sources) hash.update(readFileSync(f));
  const outfile = join(tmpdir(), `${name}-${hash.digest('hex').slice(0, 12)}.mjs`);
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
    ...(banner ? { banner: { js: banner } } : {}),
  });
  renameSync(tmp, outfile);
  return outfile;
}

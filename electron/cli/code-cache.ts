import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { homePaths } from '../host/config/paths';
import { writeCacheFile } from '../host/fs/cache-file';
import { lazyRequire } from '../host/system/lazy-require';

// Loaded when a bundle runs: `mewbo tool`'s start-up snapshot holds this module, and node:vm
// loaded while a snapshot is built may not work once it is deserialized (Node warns so).
const vm = lazyRequire<typeof import('node:vm')>('node:vm');

// Runs one of the CLI's command bundles (dist/cli-NAME.cjs, build/build.mjs) with a V8 code
// cache, so a command does not parse and compile its code again at every start (issue #26 part 4:
// compilation was the largest part of `mewbo tool read_file` and `mewbo serve` start-up after
// Node's own). Node 20 has no compile cache for modules (module.enableCompileCache is Node 22), so
// the bundle is CommonJS compiled here through vm.Script, which takes and makes V8's cached data.
//
// The cache of a bundle is written once, by the first run that had none (or whose cache V8
// refused: another Node, other V8 flags), with what that run compiled; later runs only read it.
// It lives in the user's own $MEWBO_HOME (owner-only), never beside the install or in a shared
// temp directory: cached data is code, so only the user may write it. Its name carries the
// bundle's size and mtime, since V8 itself only checks the source's length; a rebuilt bundle gets
// a new file, and the stale ones of that bundle are removed when it is written.

/** The parameter the bundles read `import.meta.url` from (build/build.mjs defines it). */
export const IMPORT_META_URL_PARAM = '__mewboImportMetaUrl';

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** Writes the cache if this run read none it could use; at most once; errors are ignored. */
  saveCodeCache(): void;
}

/** Runs the CommonJS bundle `file` as a module and returns its exports; `cacheDir` holds the caches. */
export function loadBundle(file: string, cacheDir: string): LoadedBundle {
  const stat = statSync(file);
  const name = `${basename(file)}-`;
  const cacheFile = join(cacheDir, `${name}${stat.size}-${Math.trunc(stat.mtimeMs)}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: this run compiles and then writes one.
  }
  // The bundles are ASCII (build/build.mjs), so Latin-1 reads them as they are, into a one-byte
  // string; UTF-8 decoding validated every byte first (~10% of `mewbo tool read_file`).
  const bytes = readFileSync(file);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const { Script, constants } = vm();
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, ${IMPORT_META_URL_PARAM}) {${source}\n})`,
    {
      filename: file,
      cachedData,
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  let pending = !cachedData || script.cachedDataRejected === true;
  const saveCodeCache = () => {
    if (!pending) return;
    pending = false;
    if (!writeCacheFile(cacheFile, script.createCachedData())) return;
    try {
      for (const other of readdirSync(cacheDir))
        if (other.startsWith(name) && other !== basename(cacheFile) && other.endsWith('.v8'))
          rmSync(join(cacheDir, other), { force: true });
    } catch {
      // Stale caches left behind only take disk space; the next write tries again.
    }
  };
  process.once('exit', saveCodeCache);
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    pathToFileURL(file).href,
  );
  return { exports: module.exports, saveCodeCache };
}

/**
 * The bundle of command `name`, dist/cli-NAME.cjs (its module's exports, typed by `M`), run with
 * its code cache in the user's cache folder. For the CLI's entry (./commands.ts) and `mewbo tool`'s
 * start-up snapshot (./tool-snapshot.ts), which runs the tools it does not hold from the bundle.
 */
export function commandBundle<M>(name: string): LoadedBundle & { exports: M } {
  const file = fileURLToPath(new URL(`./cli-${name}.cjs`, import.meta.url));
  return loadBundle(file, homePaths().cacheDir) as LoadedBundle & { exports: M };
}

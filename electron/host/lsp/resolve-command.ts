import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Finding a server's executable: the project's own node_modules/.bin first (a project pins its
// typescript-language-server or pyright there), then PATH, then this app's node_modules/.bin
// (where the bundled dev dependencies live).

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ResolveOptions {
  /** Directories searched before PATH, e.g. `<project>/node_modules/.bin`. */
  before: string[];
  /** Directories searched after PATH. */
  after: string[];
  /** The PATH to search (default: this process's). */
  path?: string;
}

/** The absolute path of `program`, or null when it is not installed anywhere we look. */
export function resolveExecutable(
  program: string,
  cwd: string,
  opts: ResolveOptions,
): string | null {
  if (program.includes('/')) {
    const abs = isAbsolute(program) ? program : resolve(cwd, program);
    return isExecutable(abs) ? abs : null;
  }
  const pathDirs = (opts.path ?? process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...opts.before, ...pathDirs, ...opts.after]) {
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** Every `node_modules/.bin` from `dir` up to `stop` (inclusive), nearest first. */
export function nodeBinDirs(dir: string, stop: string): string[] {
  const out: string[] = [];
  let current = dir;
  for (;;) {
    const bin = join(current, 'node_modules', '.bin');
    if (existsSync(bin)) out.push(bin);
    if (current === stop) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return out;
}

/**
 * The directory of this module: from `import.meta.url` in ESM (sources, dist/cli.js); a CommonJS
 * bundle (the Electron main process) has no import.meta, so the bundle's own directory (its
 * `__dirname`: the packaged app's argv[1] is not its script).
 */
export function moduleDir(): string {
  const url = (import.meta as { url?: string }).url;
  if (url) return dirname(fileURLToPath(url));
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

/**
 * This app's own node_modules/.bin, found by walking up from this module (the same walk works from
 * the source tree under vitest and from the bundles in dist/).
 */
export function appBinDirs(fromDir: string = moduleDir()): string[] {
  let dir = fromDir;
  for (;;) {
    const bin = join(dir, 'node_modules', '.bin');
    if (existsSync(bin)) return [bin];
    const parent = dirname(dir);
    if (parent === dir) return [];
    dir = parent;
  }
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { LAUNCHER_RELATIVE_PATH } from '../sandbox/launcher';

// What the app copies to a remote (issue #29 part 2): the CLI's code (the tools and the remote
// part), the Landlock launcher, and node-pty for PTYs, laid out like an install so the same code
// finds its files there (findInstallRoot, findLauncher). Native parts are this machine's build:
// the remote must have the same OS and architecture. Nothing is downloaded by the remote.

export interface RemoteBundle {
  /** The install it is taken from. */
  root: string;
  /** Paths relative to `root`. */
  files: string[];
  /** `<package version>-<content hash>`: a rebuilt app is a new version, replacing the old copy. */
  version: string;
}

/** The bundles of `mewbo remote-part` and `remote-mcp` (electron/cli/commands.ts runs each command from its own). */
const REMOTE_COMMAND_BUNDLES = ['dist/cli-remote-part.cjs', 'dist/cli-remote-mcp.cjs'];

/** The platform and `uname -m` name the bundle's native parts were built for. */
export const BUNDLE_OS = 'Linux';
export function bundleMachine(arch: string = process.arch): string {
  return arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : arch;
}

function walk(root: string, rel: string, keep: (rel: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, path, keep));
    else if (e.isFile() && keep(path)) out.push(path);
  }
  return out;
}

/** The bundle of the install at `root`; throws naming what is missing (the app is not built). */
export function remoteBundle(root: string): RemoteBundle {
  const pty = 'node_modules/node-pty';
  const files = [
    'package.json',
    // The CLI and its chunks (no source maps: a third of the size), the grammars they read, and
    // of the commands' own bundles (cli-NAME.cjs) the ones the remote runs.
    ...walk(
      root,
      'dist',
      (p) =>
        /^dist\/cli[^/]*\.js$/.test(p) ||
        REMOTE_COMMAND_BUNDLES.includes(p) ||
        p.startsWith('dist/tree-sitter/'),
    ),
    LAUNCHER_RELATIVE_PATH,
    `${pty}/package.json`,
    ...walk(root, `${pty}/lib`, (p) => p.endsWith('.js') && !p.endsWith('.test.js')),
    `${pty}/build/Release/pty.node`,
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, file));
    } catch {
      throw new Error(
        `the remote bundle lacks ${file} under ${root}: build the app first (npm run build)`,
      );
    }
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { root, files, version: `${pkg.version}-${hash.digest('hex').slice(0, 16)}` };
}

/**
 * The bundle's files as a gzipped tar stream (modes kept: the launcher stays executable). tar is
 * loaded here, at an install, not with the host: 113 KiB of source and its objects held by every
 * idle host for a step most starts never take (issue #26 part 4).
 */
export async function bundleTar(bundle: RemoteBundle): Promise<Readable> {
  const { create: createTar } = await import('tar');
  return createTar(
    { gzip: true, cwd: bundle.root, portable: true },
    bundle.files,
  ) as unknown as Readable;
}

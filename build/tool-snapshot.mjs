// `mewbo tool`'s V8 start-up snapshots and the `mewbo` launcher that uses them (#26 part 4;
// electron/cli/snapshot-main.ts says what a snapshot holds and why).
//
// The launcher, dist/mewbo (package.json's bin), is a POSIX shell script: a snapshot is given to
// node on its command line (`--snapshot-blob`), which a `#!/usr/bin/env node` script cannot add.
// It costs a shell (about 3 ms of CPU) and execs node, so signals and the exit code are node's. It
// starts no other process on its way to node: the readlink and the `$(command -v node)` subshell
// it forked before cost more than the shell itself (14 vs 4 ms of CPU at load 5, a tenth of
// `mewbo tool read_file`), so it compares files with test's -ef and walks PATH itself. It uses
// the blob only when node is the binary that built it and not replaced since (a blob from another
// Node aborts or crashes node, it does not fail cleanly), with no NODE_OPTIONS (V8 flags there,
// such as --max-old-space-size, make node refuse the blob: "built with different V8
// configurations"), and from the dist/ the blob was built in (the blob holds that path: the
// launcher must be that dist/'s own file); otherwise, and for every other command, it runs
// dist/cli.js as the old `#!/usr/bin/env node` bin did.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Resolves every import() to a module that throws: the snapshot holds what is loaded statically. */
const notInSnapshot = {
  name: 'not-in-snapshot',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: args.path, namespace: 'not-in-snapshot' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'not-in-snapshot' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in mewbo tool's start-up snapshot`)});`,
    }));
  },
};

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Builds `mewbo tool`'s start-up snapshots with `bundleOptions` (the command bundles' esbuild
 * options), and dist/mewbo.
 */
export async function buildToolSnapshot({ root, bundleOptions, importMetaUrlParam }) {
  const dist = join(root, 'dist');
  // Every tool, and read_file alone with nothing a module loads by import() (each such import is
  // a module that throws, which no read_file call reaches: electron/cli/read-file-snapshot.ts).
  await buildSnapshot('cli-tool', 'electron/cli/tool-snapshot.ts', []);
  await buildSnapshot('cli-read-file', 'electron/cli/read-file-snapshot.ts', [notInSnapshot]);

  async function buildSnapshot(name, source, plugins) {
    const blob = join(dist, `${name}.blob`);
    const entry = join(dist, `${name}-snapshot.cjs`);
    rmSync(blob, { force: true });
    await build({
      ...bundleOptions,
      entryPoints: [source],
      outdir: undefined,
      outfile: entry,
      // Whitespace and syntax minified: the heap the snapshot holds, and so what every start
      // deserializes, is smaller (-4.6M instructions a start). Identifiers keep their
      // names, which code and dependencies may read (renamed and kept by keepNames' wrappers, they
      // measured 150.8M).
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [...bundleOptions.plugins, ...plugins],
      // A snapshot's entry is a script, not a module: the bundle's import.meta.url is this file's.
      banner: {
        js: `var ${importMetaUrlParam} = require('node:url').pathToFileURL(__filename).href;`,
      },
    });
    // Built with no $MEWBO_HOME of the developer's, and nothing printed: the warm-up's read_file
    // answer goes nowhere.
    const home = mkdtempSync(join(tmpdir(), 'mewbo-snapshot-home-'));
    const env = { ...process.env, MEWBO_HOME: home };
    delete env.NODE_OPTIONS;
    const r = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], {
      cwd: dist,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    rmSync(home, { recursive: true, force: true });
    // Node warns that node:module is "not yet fully verified" in a snapshot: the bundle's require
    // comes from it, and only loads Node's own modules, which the snapshot's tests cover.
    const stderr = r.stderr.replace(
      /\(node:\d+\) Warning: It's not yet fully verified[^]*?\n\(Use `node --trace-warnings[^\n]*\n/,
      '',
    );
    if (r.status !== 0 || stderr.trim()) {
      rmSync(blob, { force: true });
      console.warn(
        `mewbo tool's start-up snapshot ${name}.blob was not built (the CLI runs without it):\n${stderr}`,
      );
    }
  }

  const node = realpathSync(process.execPath);
  const launcher = join(dist, 'mewbo');
  const distQ = quote(dist);
  const nodeQ = quote(node);
  writeFileSync(
    launcher,
    `#!/bin/sh
# mewbo: \`mewbo tool\` from its start-up snapshot when this node can load it, every other command
# (and \`tool\` without it) from dist/cli.js. Written by build/tool-snapshot.mjs, which says why.
# Shell built-ins only until node runs (a fork costs more than the rest): -ef compares files.
set -f
if [ "$0" -ef ${quote(launcher)} ]; then
  # read_file's own snapshot holds its code alone (electron/cli/read-file-snapshot.ts).
  blob=${distQ}/cli-tool.blob
  [ "$2" = read_file ] && blob=${distQ}/cli-read-file.blob
  if [ "$1" = tool ] && [ -z "$NODE_OPTIONS" ] && [ -r "$blob" ] && [ "$blob" -nt ${nodeQ} ]; then
    # The node \`command -v node\` names: the first executable file called node on PATH.
    IFS=:
    for dir in $PATH; do
      if [ -f "\${dir:-.}/node" ] && [ -x "\${dir:-.}/node" ]; then
        [ "\${dir:-.}/node" -ef ${nodeQ} ] && exec node --snapshot-blob "$blob" "$@"
        break
      fi
    done
    unset IFS
  fi
  exec node ${distQ}/cli.js "$@"
fi
self=$(readlink -f -- "$0") || self=$0
exec node "\${self%/*}/cli.js" "$@"
`,
  );
  chmodSync(launcher, 0o755);
}

// `mewbo tool`'s fast starts and the `mewbo` launcher that uses them (#26 part 4): the V8 start-up
// snapshot of every tool (electron/cli/snapshot-main.ts says what a snapshot holds and why), and
// read_file's own small bundle run with a code cache (electron/cli/read-file-start.ts). read_file
// had a snapshot of its own too; with classic zod off its path its bundle starts faster: a
// snapshot's heap is read and faulted in whole at every start (an empty one alone is 1.5x
// `node -e 0`), a code cache holds only what the start compiles.
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
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * read_file's bundle holds what its modules load statically: every import() resolves to a module
 * that throws (no read reaches one: a read-only context starts no shell, LSP or policy writer),
 * except the config reader's, which comes from its own bundle beside it.
 */
const readFileImports = {
  name: 'read-file-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      if (args.path === './load-config' && args.importer.endsWith('/config/checked-config.ts'))
        return { path: './cli-config-check.cjs', external: true };
      return { path: args.path, namespace: 'not-in-bundle' };
    });
    b.onLoad({ filter: /.*/, namespace: 'not-in-bundle' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in mewbo tool read_file's bundle`)});`,
    }));
  },
};

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Builds `mewbo tool`'s start-up snapshot and read_file's bundles with `bundleOptions` (the command
 * bundles' esbuild options), and dist/mewbo.
 */
export async function buildToolSnapshot({ root, bundleOptions, importMetaUrlParam }) {
  const dist = join(root, 'dist');
  await buildSnapshot('cli-tool', 'electron/cli/tool-snapshot.ts');
  await buildReadFile();

  async function buildReadFile() {
    /** dist/NAME.cjs from `source`: small, and ASCII so it is read as Latin-1 (code-cache.ts). */
    const bundle = async (name, source, options = {}) => {
      await build({
        ...bundleOptions,
        minifyWhitespace: true,
        minifySyntax: true,
        legalComments: 'none',
        entryPoints: { [name]: source },
        outdir: dist,
        outExtension: { '.js': '.cjs' },
        ...options,
      });
      if (/[^\0-\x7f]/.test(readFileSync(join(dist, `${name}.cjs`), 'latin1')))
        throw new Error(`dist/${name}.cjs is not ASCII (electron/cli/code-cache.ts reads it so)`);
    };
    await Promise.all([
      bundle('cli-read-file', 'electron/cli/read-file-command.ts', {
        plugins: [...bundleOptions.plugins, readFileImports],
        // zod's side-effect claims are honoured here: they keep zod/mini to what read_file's
        // schemas use (with them ignored, all of zod's core ran at every start, every locale and
        // JSON-schema converter: 10M instructions). The ordering fault that made the other
        // bundles ignore them needs classic zod, which this bundle does not hold.
        ignoreAnnotations: false,
      }),
      // The config reader for read_file's bundle (host/config/checked-config.ts), loaded only
      // when configs/app.json is not the text this build last accepted.
      bundle('cli-config-check', 'electron/host/config/load-config.ts'),
      // What the launcher runs: a script (not a bundle run through a code cache) that runs the
      // bundle above with its code cache. It finds dist/ from its own file.
      bundle('cli-read-file-start', 'electron/cli/read-file-start.ts', {
        banner: {
          js: `var ${importMetaUrlParam} = require('node:url').pathToFileURL(__filename).href;`,
        },
      }),
    ]);
  }

  async function buildSnapshot(name, source) {
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
# mewbo: \`mewbo tool read_file\` from its own bundle, \`mewbo tool\` from its start-up snapshot when
# this node can load it, every other command (and \`tool\` without it) from dist/cli.js. Written by
# build/tool-snapshot.mjs, which says why.
# Shell built-ins only until node runs (a fork costs more than the rest): -ef compares files.
set -f
if [ "$0" -ef ${quote(launcher)} ]; then
  # read_file's bundle holds its code alone (electron/cli/read-file-start.ts); any node runs it.
  [ "$1" = tool ] && [ "$2" = read_file ] && exec node ${distQ}/cli-read-file-start.cjs "$@"
  blob=${distQ}/cli-tool.blob
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

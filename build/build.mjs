// Builds the Node side (CLI, web host, Electron main + preload) with esbuild and the renderer with
// Vite. `--node-only` skips the renderer (tests that only drive the CLI).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { buildLandlock } from './build-landlock.mjs';
import { buildPhonePage } from './phone-page.mjs';
import { buildToolSnapshot } from './tool-snapshot.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const nodeOnly = process.argv.includes('--node-only');
mkdirSync(`${root}/dist`, { recursive: true });
// Drop the previous build's CLI chunks and bundles (a command removed leaves no bundle behind).
for (const f of readdirSync(`${root}/dist`))
  if (/^cli-.*\.c?js(\.map)?$/.test(f)) rmSync(`${root}/dist/${f}`);
// The commands built as bundles (electron/cli/commands.ts loads dist/cli-NAME.cjs for NAME).
const cliCommands = [
  ...readFileSync(`${root}/electron/cli/commands.ts`, 'utf8').matchAll(
    /commandBundle<[^>]*>\('([a-z-]+)'\)/g,
  ),
].map((m) => m[1]);
// The parameter electron/cli/code-cache.ts hands each bundle its URL in.
const IMPORT_META_URL_PARAM = '__mewboImportMetaUrl';

// What the build's code was built from (electron/host/config/checked-config.ts: a config checked
// by one build is taken without checking only by that same build): a hash of every source file
// and of the locked dependencies, zod among them.
function buildId() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else hash.update(`${path}\0`).update(readFileSync(path));
    }
  };
  for (const dir of ['electron', 'shared']) walk(`${root}/${dir}`);
  hash.update(readFileSync(`${root}/package-lock.json`));
  return hash.digest('hex').slice(0, 32);
}
const BUILD_ID_DEFINE = { __MEWBO_BUILD_ID__: JSON.stringify(buildId()) };

const common = {
  absWorkingDir: root,
  define: BUILD_ID_DEFINE,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Dependencies stay in node_modules: node-pty is native, and electron is provided at run time.
  packages: 'external',
  logLevel: 'warning',
};

// `import { z } from 'zod'` hands over zod's namespace object, which a bundler must keep whole:
// every schema kind, JSON-schema converter and all 40 locales (750 KB that each CLI process
// compiled before doing anything, ~40-60 ms; issue #18). Our sources' `zod` resolves instead to
// an object of just the functions they call, imported by name, so esbuild drops the rest. The
// names are the `z.x` the sources use that zod exports at run time (types such as z.infer are
// not exports); packages importing zod themselves still get the real module.
async function zodNamedExports() {
  const exported = new Set(Object.keys(await import('zod')));
  // Named in type positions only (z.core.JSONSchema, z.input<...>); `core` is a namespace that
  // would bring all of zod back. A run-time use of one of these would be undefined: add it here.
  for (const typeOnly of ['core', 'input', 'output', 'infer']) exported.delete(typeOnly);
  const used = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(e.name))
        for (const m of readFileSync(path, 'utf8').matchAll(/\bz\.([A-Za-z_$][\w$]*)/g))
          if (exported.has(m[1])) used.add(m[1]);
    }
  };
  for (const dir of ['electron', 'shared', 'renderer/src']) walk(`${root}/${dir}`);
  const names = [...used].sort();
  const local = (n) => `zod_${n}`;
  return {
    name: 'zod-named-exports',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) =>
        args.namespace === 'zod-named' || args.importer.includes('/node_modules/')
          ? undefined
          : { path: 'zod', namespace: 'zod-named' },
      );
      b.onLoad({ filter: /.*/, namespace: 'zod-named' }, () => ({
        resolveDir: root,
        contents:
          `import { ${names.map((n) => `${n} as ${local(n)}`).join(', ')} } from 'zod';\n` +
          `export const z = { ${names.map((n) => `${n}: ${local(n)}`).join(', ')} };\n`,
      }));
    },
  };
}
const zodPlugin = await zodNamedExports();

// Bash's grammar for the permission rules (electron/host/rules/bash-parser.ts): web-tree-sitter's
// runtime and tree-sitter-bash's grammar, both WebAssembly, read from dist/tree-sitter/ by the
// bundles (the packaged app has no node_modules of the grammar: it is a build input only).
mkdirSync(`${root}/dist/tree-sitter`, { recursive: true });
for (const wasm of [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
])
  copyFileSync(`${root}/${wasm}`, `${root}/dist/tree-sitter/${wasm.split('/').pop()}`);

// The shell launcher (C, Landlock + process-tree supervisor); skipped when up to date.
buildLandlock();

// The command bundles' options (dist/cli-NAME.cjs), also those of `mewbo tool`'s snapshot.
const commandBundleOptions = {
  ...common,
  format: 'cjs',
  packages: undefined,
  external: ['node-pty', 'electron'],
  plugins: [zodPlugin],
  // zod's package says it has no side effects, so esbuild drops its entry modules (only
  // re-exports) and binds `z.string()` to zod's inner modules. In one CommonJS bundle those are
  // initialized lazily (a dynamic import reaches them), and with the entry dropped a module whose
  // top level builds a schema ran before them ("Class is not a constructor"). Honouring no
  // package's side-effect claims keeps the entries; the tool bundle grows 7%, its cache covers it.
  ignoreAnnotations: true,
  // Modules find their files from import.meta.url (dist/): code-cache.ts passes the bundle's URL.
  define: { ...BUILD_ID_DEFINE, 'import.meta.url': IMPORT_META_URL_PARAM },
  // No import() left in a bundle: code compiled from V8's cached data loses the script's
  // importModuleDynamically (node 20), so every run after the first failed "A dynamic import
  // callback was not specified" where web-tree-sitter's ES module glue imports node:module, and
  // `mewbo run` judged shell commands with no bash grammar. Its CommonJS build requires what it
  // needs; what remains to import is node's own modules, which require() loads the same.
  supported: { 'dynamic-import': false },
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

await Promise.all([
  // The CLI: dist/cli.js holds the entry and the command list (the bin, dist/mewbo, runs it, or
  // `mewbo tool` from its snapshot: build/tool-snapshot.mjs). `mewbo serve` is split into chunks
  // beside it, loaded by dynamic import (its SDKs and rarely used parts stay on disk until used,
  // which keeps the idle host small). Every other command is a CommonJS bundle of its own,
  // dist/cli-NAME.cjs, which the entry runs with a V8 code cache (electron/cli/code-cache.ts: Node
  // 20 caches no ES module's compilation, and compiling was most of a short command's start-up).
  // npm packages are bundled in (Node then reads a few files instead of resolving and parsing
  // hundreds); node-pty is native and stays in node_modules.
  build({
    ...common,
    // The other commands' modules are entries here too though they run from their bundles: esbuild
    // cuts chunks by which entries share the code, and with serve alone its chunks merged into a
    // few large ones, with which the idle host measured 2 MiB larger (70.8 vs 68.6 MiB). Their
    // entry files (dist/cli-esm-NAME.js) are not loaded.
    entryPoints: {
      cli: 'electron/cli.ts',
      ...Object.fromEntries(
        cliCommands.map((name) => [`cli-esm-${name}`, `electron/cli/${name}.ts`]),
      ),
    },
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    // Beside cli.js (modules find their files from import.meta.url, i.e. dist/).
    chunkNames: 'cli-[name]-[hash]',
    packages: undefined,
    // V8 keeps each loaded module's source in the heap for as long as the process runs (it compiles
    // functions lazily from it): without comments and indentation the idle host's 1.7 MB of source
    // is 1.1 MB (heap used 13.6 -> 12.8 MiB, issue #26 part 4). Names are kept (stack traces, and
    // code that reads an error's or a class's name); lines are cut at 500 characters, so the source
    // line Node prints with an uncaught error stays readable. The maps still point at the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    lineLimit: 500,
    external: ['node-pty', 'electron'],
    plugins: [zodPlugin],
    // Bundled CommonJS packages call require() for Node built-ins.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __mewboRequire } from 'node:module';\nconst require = __mewboRequire(import.meta.url);",
    },
  }),
  build({
    ...commandBundleOptions,
    // One bundle per command, named like its module (electron/cli/NAME.ts, commands.ts).
    entryPoints: Object.fromEntries(
      cliCommands.map((name) => [`cli-${name}`, `electron/cli/${name}.ts`]),
    ),
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
  }),
  build({
    ...common,
    entryPoints: { main: 'electron/main.ts' },
    outfile: 'dist/main.cjs',
    format: 'cjs',
    external: ['electron'],
    // Host modules find their files from import.meta.url under ESM and fall back under CJS.
    logOverride: { 'empty-import-meta': 'silent' },
  }),
  // A sandboxed preload cannot be ESM and cannot require npm modules: one self-contained CJS file.
  build({
    ...common,
    packages: undefined,
    entryPoints: { preload: 'electron/preload.ts' },
    outfile: 'dist/preload.cjs',
    format: 'cjs',
    external: ['electron'],
  }),
  // The phone page the pairing listener serves (static, so it is built with the Node side).
  buildPhonePage({ root }),
]);

// The command bundles are read as Latin-1 when they are pure ASCII (electron/cli/code-cache.ts):
// read as UTF-8, one non-ASCII character made V8 decode all 1.2 MB of `mewbo tool`'s bundle
// into a two-byte string, ~27M instructions of a run that Node itself starts in 82M (issue #26
// part 4). serve's chunks (dist/cli-*.js) too: V8 keeps a module's source in the heap for as long
// as the process runs, and one character made zod's 291 KiB chunk a 582 KiB two-byte string in
// the idle host. esbuild escapes non-ASCII in code (its default charset); what is left is in
// comments it keeps (zod's, p-queue's), where an escape reads the same.
for (const f of readdirSync(`${root}/dist`)) {
  if (!/^cli-.*\.c?js$/.test(f)) continue;
  const text = readFileSync(`${root}/dist/${f}`, 'utf8');
  if (/[^\0-\x7f]/.test(text))
    writeFileSync(
      `${root}/dist/${f}`,
      text.replace(/[^\0-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
    );
}

// After the Latin-1 pass above, which makes the snapshot's bundle ASCII too: its source is part of
// the heap the snapshot holds, one byte a character.
await buildToolSnapshot({
  root,
  bundleOptions: commandBundleOptions,
  importMetaUrlParam: IMPORT_META_URL_PARAM,
});

if (!nodeOnly) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: `${root}/renderer/vite.config.ts`, logLevel: 'warn' });
}

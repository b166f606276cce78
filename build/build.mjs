// Builds the Node side (CLI, web host, Electron main + preload) with esbuild and the renderer with
// Vite. `--node-only` skips the renderer (tests that only drive the CLI).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { buildLandlock } from './build-landlock.mjs';
import { buildPhonePage } from './phone-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const nodeOnly = process.argv.includes('--node-only');
mkdirSync(`${root}/dist`, { recursive: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Dependencies stay in node_modules: node-pty is native, and electron is provided at run time.
  packages: 'external',
  logLevel: 'warning',
};

// The shell launcher (C, Landlock + process-tree supervisor); skipped when up to date.
buildLandlock();

await Promise.all([
  build({
    ...common,
    entryPoints: { cli: 'electron/cli.ts' },
    outdir: 'dist',
    format: 'esm',
    banner: { js: '#!/usr/bin/env node' },
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

if (!nodeOnly) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: `${root}/renderer/vite.config.ts`, logLevel: 'warn' });
}

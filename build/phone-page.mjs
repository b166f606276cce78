// Builds the phone web page (renderer/phone) into one static directory that the pairing listener
// serves: index.html, phone.css and phone.js (one minified bundle, shared/ schemas included).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export async function buildPhonePage({ root, outdir = join(root, 'dist', 'phone') }) {
  const src = join(root, 'renderer', 'phone');
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: [join(src, 'main.ts')],
    outfile: join(outdir, 'phone.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // Phones a few years old: Android Chrome and iOS Safari 15.
    target: ['chrome100', 'safari15', 'firefox100'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(src, 'index.html'), join(outdir, 'index.html'));
  copyFileSync(join(src, 'phone.css'), join(outdir, 'phone.css'));
  return outdir;
}

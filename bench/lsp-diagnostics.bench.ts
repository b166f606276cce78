import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { LspService } from '../electron/host/lsp/lsp-service';
import { report, timed } from './report';

// Diagnostics from typescript-language-server on a generated 200-file project: the first answer
// after a cold start (spawn, initialize, program load, check of one file) and the answer after an
// edit (passive diagnostics, the path the agent loop takes), each beside `tsc --noEmit` over the
// same project in the same run. tsc checks every file; the server answers for the edited one.

const FILES = 200;
const FUNCTIONS_PER_FILE = 12;
const EDITS = 6;

function moduleText(i: number): string {
  const prev = i - 1;
  const lines = [
    i > 0 ? `import { value${prev}, make${prev}, type Shape${prev} } from './mod${prev}';` : '',
    `export interface Shape${i} { id: number; name: string; tags: string[]; parent?: ${i > 0 ? `Shape${prev}` : 'undefined'} }`,
    `export function make${i}(n: number): Shape${i} {`,
    `  return { id: n, name: \`m${i}-\${n}\`, tags: [String(n)]${i > 0 ? `, parent: make${prev}(n - 1)` : ''} };`,
    `}`,
    `export const value${i}: number = ${i > 0 ? `value${prev} + ` : ''}${i};`,
  ];
  for (let f = 0; f < FUNCTIONS_PER_FILE; f++) {
    lines.push(
      `export function f${i}_${f}(xs: readonly Shape${i}[], k: keyof Shape${i}): Map<string, Shape${i}[]> {`,
      `  const out = new Map<string, Shape${i}[]>();`,
      `  for (const x of xs) { const key = String(x[k]); out.set(key, [...(out.get(key) ?? []), x]); }`,
      `  return out;`,
      `}`,
    );
  }
  return lines.join('\n') + '\n';
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-lsp-'));
const lsp = new LspService({ config: () => parseConfig({}), waits: { passiveMs: 60_000 } });
try {
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
      },
      include: ['src'],
    }),
  );
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'src', `mod${i}.ts`), moduleText(i));

  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // spawnSync: tsc exits 2 when it finds the error the edit introduces, and is timed all the same.
  const runTsc = () =>
    timed(() => spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { stdio: 'ignore' }));
  // The first tsc run also warms the page cache for both sides (lib.d.ts, the generated files).
  await runTsc();
  const tscMs = (await runTsc()).ms;

  const target = join(dir, 'src', `mod${FILES / 2}.ts`);
  const cold = await timed(() => lsp.diagnostics(dir, target));
  if (cold.value.kind !== 'lsp_diagnostics' || cold.value.total !== 0)
    throw new Error(`cold diagnostics failed: ${JSON.stringify(cold.value)}`);
  report(
    `first diagnostics after a cold start (${FILES} files)`,
    cold.ms,
    'ms',
    tscMs,
    'ms',
    'tsc --noEmit, whole project',
  );

  const clean = readFileSync(target, 'utf8');
  const broken = clean.replace(
    /export const value(\d+): number = /,
    "export const value$1: number = 'oops' + ",
  );
  const editMs: number[] = [];
  for (let e = 0; e < EDITS; e++) {
    const introducesError = e % 2 === 0;
    writeFileSync(target, introducesError ? broken : clean);
    const after = await timed(() => lsp.diagnosticsAfterEdit(dir, [target]));
    const saysError = after.value?.text.includes('TS2322') ?? false;
    if (saysError !== introducesError)
      throw new Error(`edit ${e}: unexpected note ${JSON.stringify(after.value)}`);
    editMs.push(after.ms);
  }
  writeFileSync(target, broken);
  const tscEdit = await runTsc();
  if (tscEdit.value.status !== 2)
    throw new Error(`tsc should report the edit's error, exited ${tscEdit.value.status}`);
  report(
    `diagnostics after an edit (median of ${EDITS})`,
    median(editMs),
    'ms',
    tscEdit.ms,
    'ms',
    'tsc --noEmit after the same edit',
  );
} finally {
  await lsp.dispose();
  rmSync(dir, { recursive: true, force: true });
}

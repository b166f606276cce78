import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../electron/host/checkpoints/checkpoint-store';
import { fmt, report, timed } from './report';

// A checkpoint of a 50k-file working tree (issue 19: "well under a second after the first"),
// first and incremental (10 files changed), against `git add -A && git write-tree` on a copy of
// the same tree with its own fresh repository and index, which is the same work: hash every
// non-ignored file into objects and write the tree, then on the second call re-stat the tree and
// hash only what changed. The checkpoint also lists untracked/modified files to find those over
// the size limit and records a commit and a ref, which git add alone does not.

const TOP = 50;
const SUB = 20;
const FILES = 50;
const CHANGED = 10;

const base = mkdtempSync(join(tmpdir(), 'mewbo-bench-ckpt-'));
const tree = join(base, 'project');
const copy = join(base, 'copy');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function makeTree(dir: string): void {
  for (let t = 0; t < TOP; t++) {
    for (let s = 0; s < SUB; s++) {
      const d = join(dir, `pkg${t}`, `mod${s}`);
      mkdirSync(d, { recursive: true });
      for (let f = 0; f < FILES; f++)
        writeFileSync(join(d, `file${f}.ts`), `export const v${t}_${s}_${f} = ${f};\n`);
    }
  }
  mkdirSync(join(dir, 'build'));
  for (let f = 0; f < 2_000; f++) writeFileSync(join(dir, 'build', `out${f}.js`), 'x\n');
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
}

function touch(dir: string, round: number): void {
  for (let i = 0; i < CHANGED; i++)
    writeFileSync(join(dir, `pkg${i}`, 'mod0', 'file0.ts'), `export const changed = ${round};\n`);
}

try {
  makeTree(tree);
  cpSync(tree, copy, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: copy,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  git('init', '-q');
  const store = new CheckpointStore({ dir: join(base, 'store'), maxFileBytes: 10 * 1024 * 1024 });
  const project = store.forRoot(tree);

  const first = await timed(() => project.snapshot('first'));
  const refFirst = await timed(() => {
    git('add', '-A');
    git('write-tree');
  });
  report(
    'checkpoint, first of 50k files',
    first.ms,
    'ms',
    refFirst.ms,
    'ms',
    'git add -A && git write-tree',
  );

  const ours: number[] = [];
  const refs: number[] = [];
  for (let round = 1; round <= 5; round++) {
    touch(tree, round);
    touch(copy, round);
    ours.push((await timed(() => project.snapshot(`round ${round}`))).ms);
    refs.push(
      (
        await timed(() => {
          git('add', '-A');
          git('write-tree');
        })
      ).ms,
    );
  }
  report(
    `checkpoint, incremental (${CHANGED} files changed, median of 5)`,
    median(ours),
    'ms',
    median(refs),
    'ms',
    'git add -A && git write-tree',
  );
  const same = await timed(() => project.snapshot('unchanged'));
  console.log(`checkpoint, unchanged tree: ${fmt(same.ms)} ms (adds no object)`);
  console.log(
    `checkpoint incremental under 1 s: ${median(ours) < 1000 ? 'yes' : 'no'} (goal: yes)`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, report } from './report';
import { have, median, warmMcp } from './fs-bench';

// Issue #18: aider_list_dir_tool on a 100k-file tree with a .gitignore, called through a warm
// `mewbo mcp`, against `rg --files` on the same tree. The same work: both walk every directory,
// read the .gitignore and apply it to every entry, skip .git, and answer over a pipe to another
// process. rg prints every path (it has no cap); list_dir returns the first ones up to its 30,000
// character cap and the exact total, which needs the same full walk. `--hidden --glob !.git`
// makes rg list dotfiles as list_dir does (.gitignore itself). The totals are checked equal.

const TOP = 50;
const SUB = 20;
const FILES = 100;
const IGNORED_FILES = 5_000;
const RUNS = 9;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-list-'));
const tree = join(dir, 'tree');
const home = join(dir, 'home');

try {
  mkdirSync(home);
  for (let t = 0; t < TOP; t++) {
    for (let s = 0; s < SUB; s++) {
      const d = join(tree, `pkg${t}`, `mod${s}`);
      mkdirSync(d, { recursive: true });
      for (let f = 0; f < FILES; f++) writeFileSync(join(d, `file${f}.ts`), '');
    }
  }
  mkdirSync(join(tree, 'build'));
  for (let f = 0; f < IGNORED_FILES; f++) writeFileSync(join(tree, 'build', `out${f}.js`), '');
  writeFileSync(join(tree, '.gitignore'), 'build/\n*.log\n');
  execFileSync('git', ['init', '-q'], { cwd: tree });

  console.log(`tree: ${fmt(TOP * SUB * FILES)} files + ${fmt(IGNORED_FILES)} ignored`);
  const rgHere = have('rg');
  const mcp = await warmMcp(tree, home);
  const ours: number[] = [];
  const rg: number[] = [];
  let total = 0;
  let rgCount = 0;
  try {
    // Interleaved, so a busy machine weighs on both sides alike.
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      const p = await mcp.call('aider_list_dir_tool', { path: '.', max_entries: 100_000 });
      ours.push(performance.now() - t0);
      total = Number(p.total);
      if (!rgHere) continue;
      t0 = performance.now();
      const r = spawnSync('rg', ['--files', '--hidden', '--glob', '!.git'], {
        cwd: tree,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      rg.push(performance.now() - t0);
      rgCount = r.stdout.split('\n').filter(Boolean).length;
    }
  } finally {
    await mcp.close();
  }
  if (!rgHere) {
    console.log(
      `list_dir 100k files via warm mewbo mcp vs rg --files: skipped (ripgrep is not installed; apt-get install ripgrep). list_dir took ${fmt(median(ours))} ms`,
    );
  } else {
    if (rgCount !== total) console.log(`MISMATCH: list_dir total ${total}, rg ${rgCount}`);
    report(
      'list_dir 100k files with .gitignore via warm mewbo mcp vs rg --files (goal <= 1.2x)',
      median(ours),
      'ms',
      median(rg),
      'ms',
      'rg --files',
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

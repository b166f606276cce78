import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { listDirTool } from '../electron/host/tools/list-dir';
import type { ToolContext } from '../electron/host/tools/tool';
import { fmt, report, timed } from './report';

// aider_list_dir_tool over a generated 100k-file tree (with a .gitignore'd build directory)
// against git walking the same tree: `git ls-files --others --exclude-standard` (a directory walk
// honouring .gitignore, like ours) and `git ls-files` after `git add` (reads the index only).

const TOP = 50;
const SUB = 20;
const FILES = 100;
const IGNORED_FILES = 5_000;
const RUNS = 3;

const dir = mkdtempSync(join(tmpdir(), 'mewbo-bench-list-'));
const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  for (let t = 0; t < TOP; t++) {
    for (let s = 0; s < SUB; s++) {
      const d = join(dir, `pkg${t}`, `mod${s}`);
      mkdirSync(d, { recursive: true });
      for (let f = 0; f < FILES; f++) writeFileSync(join(d, `file${f}.ts`), '');
    }
  }
  mkdirSync(join(dir, 'build'));
  for (let f = 0; f < IGNORED_FILES; f++) writeFileSync(join(dir, 'build', `out${f}.js`), '');
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
  git('init', '-q');

  const ctx: ToolContext = {
    root: dir,
    sessionId: 's_bench',
    agentId: 'root',
    signal: new AbortController().signal,
    config: parseConfig({}),
    services: {},
    emit: async () => undefined,
  };
  const ours: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await timed(() => listDirTool.run(ctx, { path: '.', max_entries: 100_000 }));
    ours.push(r.ms);
    total = Number(r.value.total);
  }
  const walk: number[] = [];
  let gitCount = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await timed(() => git('ls-files', '--others', '--exclude-standard'));
    walk.push(r.ms);
    gitCount = r.value.split('\n').filter(Boolean).length;
  }
  git('add', '-A');
  const index: number[] = [];
  for (let i = 0; i < RUNS; i++) index.push((await timed(() => git('ls-files'))).ms);

  console.log(
    `tree: ${fmt(TOP * SUB * FILES)} files + ${fmt(IGNORED_FILES)} ignored; listed total ${fmt(total)}, git ${fmt(gitCount)}${total === gitCount ? '' : '  MISMATCH'}`,
  );
  report(
    'aider_list_dir_tool full walk (100k files)',
    median(ours),
    'ms',
    median(walk),
    'ms',
    'git ls-files --others --exclude-standard',
  );
  report(
    'aider_list_dir_tool full walk (100k files)',
    median(ours),
    'ms',
    median(index),
    'ms',
    'git ls-files (index)',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import { HostError } from '../rpc/host-error';
import { GIT_WRITE_TIMEOUT_MS } from '../projects/constants';
import { adminDir, worktreeGit } from './worktree-git';
import { REVIEW_DIFF_MAX_BYTES } from './constants';

// What a session did in its worktree, as git objects: its commits since the base, and everything
// it has not committed (untracked files too, ignored ones not) written as one tree through a
// private copy of the worktree's index, so the agent's own index and staging are left as they
// are. Diffs come from plumbing (diff-tree, rev-list), which runs no external diff, textconv or
// signature program a config could name.

/** One path the session changed, from its base to its work now. */
export interface ChangedFile {
  path: string;
  /** A added, D deleted, M modified, T type changed (a file became a link, ...). */
  status: 'A' | 'D' | 'M' | 'T';
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  /** Lines added and removed; null for a binary file. */
  additions: number | null;
  deletions: number | null;
}

export interface SessionCommit {
  sha: string;
  subject: string;
  author: string;
  /** Seconds since the epoch. */
  time: number;
}

const NULL_SHA = /^0+$/;

async function must(
  wt: SessionWorktree,
  args: string[],
  opts: Parameters<typeof worktreeGit>[2] = {},
): Promise<string> {
  const r = await worktreeGit(wt, args, opts);
  if (!r.ok) throw new HostError('git_failed', `git ${args[0]} in ${wt.path} failed: ${r.error}`);
  return r.stdout;
}

/**
 * The worktree's state now as a tree id: HEAD plus every change not committed, untracked files
 * included. `scratchDir` is the host's own (never the agent's) place for the index copy.
 */
export async function workTree(wt: SessionWorktree, scratchDir: string): Promise<string> {
  await mkdir(scratchDir, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(scratchDir, 'index-'));
  const index = join(dir, 'index');
  try {
    // The worktree's index carries git's stat cache: only files changed since are read again.
    const copied = await copyFile(join(adminDir(wt), 'index'), index).then(
      () => true,
      () => false,
    );
    const env = { GIT_INDEX_FILE: index };
    if (!copied) await must(wt, ['read-tree', 'HEAD'], { env });
    await must(wt, ['add', '--all', '--', '.'], { env, timeoutMs: GIT_WRITE_TIMEOUT_MS });
    return (await must(wt, ['write-tree'], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What changed from the session's base to `tree`, path by path. */
export async function changedFiles(wt: SessionWorktree, tree: string): Promise<ChangedFile[]> {
  const [raw, numstat] = await Promise.all([
    must(wt, ['diff-tree', '-r', '-z', '--raw', '--no-renames', wt.base, tree]),
    must(wt, ['diff-tree', '-r', '-z', '--numstat', '--no-renames', wt.base, tree]),
  ]);
  const counts = new Map<string, [number | null, number | null]>();
  for (const rec of numstat.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (m)
      counts.set(m[3]!, [m[1] === '-' ? null : Number(m[1]), m[2] === '-' ? null : Number(m[2])]);
  }
  const parts = raw.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([ADMT])/.exec(parts[i]!);
    if (!m) continue;
    const path = parts[i + 1]!;
    const [additions, deletions] = counts.get(path) ?? [null, null];
    files.push({
      path,
      status: m[5] as ChangedFile['status'],
      oldMode: m[1]!,
      newMode: m[2]!,
      oldSha: NULL_SHA.test(m[3]!) ? '' : m[3]!,
      newSha: NULL_SHA.test(m[4]!) ? '' : m[4]!,
      additions,
      deletions,
    });
  }
  return files;
}

/**
 * The unified diff from the base (or `from`, a commit) to `tree` (one path, or all), as `git diff`
 * prints it. Over REVIEW_DIFF_MAX_BYTES it is refused rather than cut: a partial patch reads as
 * the whole.
 */
export async function sessionPatch(
  wt: SessionWorktree,
  tree: string,
  opts: { path?: string; binary?: boolean; from?: string } = {},
): Promise<string> {
  const r = await worktreeGit(
    wt,
    [
      'diff-tree',
      '-p',
      '-r',
      '--no-renames',
      '--full-index',
      ...(opts.binary ? ['--binary'] : []),
      opts.from ?? wt.base,
      tree,
      '--',
      ...(opts.path ? [`:(literal)${opts.path}`] : []),
    ],
    { maxBuffer: REVIEW_DIFF_MAX_BYTES },
  );
  if (!r.ok)
    throw new HostError(
      /maxBuffer/.test(r.error) ? 'diff_too_large' : 'git_failed',
      /maxBuffer/.test(r.error)
        ? `the diff is larger than ${REVIEW_DIFF_MAX_BYTES / 2 ** 20} MiB; look at it file by file`
        : `git diff-tree failed in ${wt.path}: ${r.error}`,
    );
  return r.stdout;
}

/** The commits on the session's branch since its base, newest first. */
export async function sessionCommits(wt: SessionWorktree): Promise<SessionCommit[]> {
  const out = await must(wt, [
    'rev-list',
    '--no-commit-header',
    '--format=%H%x1f%s%x1f%an%x1f%at',
    `${wt.base}..HEAD`,
  ]);
  return parseCommits(out);
}

function parseCommits(out: string): SessionCommit[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, subject, author, time] = line.split('\x1f');
      return { sha: sha!, subject: subject ?? '', author: author ?? '', time: Number(time) };
    });
}

/** The contents of blobs by id (every one must exist), for Apply's three-way merges. */
export async function readBlobs(wt: SessionWorktree, shas: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(shas.filter(Boolean))];
  const blobs = new Map<string, Buffer>();
  if (!unique.length) return blobs;
  const r = await worktreeGit(wt, ['cat-file', '--batch'], {
    input: unique.join('\n') + '\n',
    bytes: true,
    maxBuffer: REVIEW_DIFF_MAX_BYTES * 4,
  });
  if (!r.ok || !r.bytes) throw new HostError('git_failed', `git cat-file failed: ${r.error}`);
  const out = r.bytes;
  let pos = 0;
  while (pos < out.length) {
    const nl = out.indexOf(0x0a, pos);
    const [sha, type, size] = out.subarray(pos, nl).toString('utf8').split(' ');
    if (type === 'missing' || size === undefined)
      throw new HostError('git_failed', `object ${sha} is missing from ${wt.git_dir}`);
    const start = nl + 1;
    blobs.set(sha!, out.subarray(start, start + Number(size)));
    pos = start + Number(size) + 1;
  }
  return blobs;
}

/** Paths that differ between the worktree's HEAD and `tree`: the work not committed. */
export async function uncommittedPaths(wt: SessionWorktree, tree: string): Promise<string[]> {
  const out = await must(wt, [
    'diff-tree',
    '-r',
    '-z',
    '--name-only',
    '--no-renames',
    'HEAD',
    tree,
  ]);
  return out.split('\0').filter(Boolean);
}

/** Commits of the session's branch that no other branch holds (what deleting it loses). */
export async function unmergedCommits(wt: SessionWorktree): Promise<SessionCommit[]> {
  const out = await must(wt, [
    'rev-list',
    '--no-commit-header',
    '--format=%H%x1f%s%x1f%an%x1f%at',
    `refs/heads/${wt.branch}`,
    '--not',
    // --branches matches its excludes without the refs/heads/ prefix.
    `--exclude=${wt.branch}`,
    '--branches',
  ]);
  return parseCommits(out);
}

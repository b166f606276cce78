import { GIT_MAX_BUFFER, GIT_TIMEOUT_MS } from './constants';
import { runHostGit } from './host-git';

export interface GitResult {
  ok: boolean;
  stdout: string;
  /** stdout as bytes, when the call asked for them (`bytes`): blob contents are not text. */
  bytes?: Buffer;
  /** stderr, or why git could not run (missing binary, timeout). */
  error: string;
}

export interface GitOptions {
  /**
   * Variables set for this call on top of the host's: GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE
   * name a session's worktree from the host's record instead of the `.git` file in it, which the
   * agent can rewrite (worktrees/worktree-git.ts).
   */
  env?: Record<string, string>;
  /** Written to git's stdin (a patch for `git apply`, object names for `cat-file --batch`). */
  input?: string | Buffer;
  /** Keep stdout as bytes too (GitResult.bytes). */
  bytes?: boolean;
  /** Most stdout kept, in bytes (default GIT_MAX_BUFFER); a call printing more fails. */
  maxBuffer?: number;
  /**
   * The repository's filter drivers turned off (filterOverrides), read by the caller alongside
   * its other calls: a command touching the tree then spawns git once instead of twice in a row.
   */
  filters?: readonly string[];
}

/**
 * Runs git (the host's, host-git.ts) without a pager, a credential prompt or optional locks (a
 * status never blocks a concurrent commit), killed at the deadline so a slow disk or a hung mount
 * cannot hold a caller, with the repository's filter drivers off where the tree is touched.
 */
export async function git(
  args: readonly string[],
  cwd: string,
  timeoutMs = GIT_TIMEOUT_MS,
  opts: GitOptions = {},
): Promise<GitResult> {
  // Commands that read or write files of the work tree run the repository's filter drivers.
  const touchesTree = TREE_COMMANDS.has(args[0] === 'worktree' ? `worktree ${args[1]}` : args[0]!);
  const filters = touchesTree
    ? (opts.filters ?? (await filterOverrides(cwd, timeoutMs, opts.env)))
    : [];
  return runGit([...filters, ...args], cwd, timeoutMs, opts);
}

/** git subcommands that run clean/smudge filters on the work tree. */
const TREE_COMMANDS = new Set([
  'status',
  'diff',
  'add',
  'checkout',
  'switch',
  'restore',
  'reset',
  'stash',
  'apply',
  'commit',
  'worktree add',
]);

async function runGit(
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  opts: GitOptions,
): Promise<GitResult> {
  const r = await runHostGit(args, {
    cwd,
    timeoutMs,
    maxBuffer: opts.maxBuffer ?? GIT_MAX_BUFFER,
    input: opts.input,
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      LC_ALL: 'C',
      ...opts.env,
    },
  });
  const stdout = r.stdout.toString('utf8');
  const bytes = opts.bytes ? { bytes: r.stdout } : {};
  return r.ok
    ? { ok: true, stdout, ...bytes, error: '' }
    : { ok: false, stdout, ...bytes, error: r.error };
}

export interface WorktreeInfo {
  path: string;
  head: string | null;
  /** Short branch name; null when detached. */
  branch: string | null;
  bare: boolean;
  detached: boolean;
  /** git says its folder is gone (`prunable`). */
  prunable: boolean;
}

/** Parses `git worktree list --porcelain`: blank-line separated records of `key value` lines. */
export function parseWorktreeList(porcelain: string): WorktreeInfo[] {
  const out: WorktreeInfo[] = [];
  for (const block of porcelain.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((l) => l.length > 0);
    const first = lines[0];
    if (!first?.startsWith('worktree ')) continue;
    const info: WorktreeInfo = {
      path: first.slice('worktree '.length),
      head: null,
      branch: null,
      bare: false,
      detached: false,
      prunable: false,
    };
    for (const line of lines.slice(1)) {
      if (line.startsWith('HEAD ')) info.head = line.slice(5);
      else if (line.startsWith('branch '))
        info.branch = line.slice(7).replace(/^refs\/heads\//, '');
      else if (line === 'bare') info.bare = true;
      else if (line === 'detached') info.detached = true;
      else if (line === 'prunable' || line.startsWith('prunable ')) info.prunable = true;
    }
    out.push(info);
  }
  return out;
}

/** `owner/name` from a remote URL (scp-like, ssh, https, file); null when there is none. */
export function repoSlug(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  const scp = /^[^/@:]+@[^/:]+:(.+)$/.exec(trimmed);
  let path = scp ? scp[1]! : trimmed;
  if (!scp) {
    try {
      path = new URL(trimmed).pathname;
    } catch {
      // A plain local path: keep it.
    }
  }
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts[parts.length - 2]}/${parts[parts.length - 1]}`;
}

export interface RepoFacts {
  worktrees: WorktreeInfo[];
  originUrl: string | null;
}

/**
 * `-c filter.X.clean= -c filter.X.smudge= -c filter.X.process=` for every filter driver the
 * repository's config defines, so a command touching the work tree runs none of them. Reading
 * the config runs nothing.
 */
export async function filterOverrides(
  cwd: string,
  timeoutMs = GIT_TIMEOUT_MS,
  env?: Record<string, string>,
): Promise<string[]> {
  const r = await runGit(['config', '--name-only', '--get-regexp', '^filter\\.'], cwd, timeoutMs, {
    env,
  });
  const names = new Set(
    r.stdout
      .split('\n')
      .map((l) => /^filter\.(.+)\.[^.]+$/.exec(l.trim())?.[1])
      .filter((n): n is string => Boolean(n)),
  );
  return [...names].flatMap((n) =>
    ['clean', 'smudge', 'process'].flatMap((k) => ['-c', `filter.${n}.${k}=`]),
  );
}

/** What the registry needs of a folder that may be a git repository; null when it is not one (or git timed out). */
export async function repoFacts(dir: string): Promise<RepoFacts | null> {
  const [list, origin] = await Promise.all([
    git(['worktree', 'list', '--porcelain'], dir),
    git(['config', '--get', 'remote.origin.url'], dir),
  ]);
  if (!list.ok) return null;
  return {
    worktrees: parseWorktreeList(list.stdout),
    originUrl: origin.ok ? origin.stdout.trim() || null : null,
  };
}

/** A folder's git state as the picker and the header show it. */
export interface FolderGitState {
  /** Short branch name; null when detached. */
  branch: string | null;
  origin: string | null;
  /** Files not committed: changed, staged, deleted or untracked (ignored ones not). */
  changed_files: number;
}

/** The branch, origin and files not committed of the repository holding `dir`; null when none does. */
export async function folderGitState(dir: string): Promise<FolderGitState | null> {
  const [status, origin] = await Promise.all([
    git(['status', '--porcelain=v2', '--branch', '-z', '--no-renames'], dir),
    git(['config', '--get', 'remote.origin.url'], dir),
  ]);
  if (!status.ok) return null;
  let branch: string | null = null;
  let changed = 0;
  for (const record of status.stdout.split('\0')) {
    if (record.startsWith('# branch.head ')) {
      const head = record.slice('# branch.head '.length);
      branch = head === '(detached)' ? null : head;
    } else if (record && !record.startsWith('#')) changed++;
  }
  return {
    branch,
    origin: origin.ok ? origin.stdout.trim() || null : null,
    changed_files: changed,
  };
}

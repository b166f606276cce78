import { execFile } from 'node:child_process';
import { GIT_TIMEOUT_MS } from './constants';
import { resolveHostTool } from './host-tools';

/** git, resolved once when the host starts (host-tools.ts): never one a shell planted on PATH. */
const GIT = resolveHostTool('git');

/**
 * What a repository's own config (.git/config, written by whoever cloned or by a shell) must not
 * make the host run: hooks, an fsmonitor command, ext:: transports. Filter drivers are named per
 * repository and neutralized per call (gitNeutralizingFilters).
 */
export const GIT_HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'protocol.ext.allow=never',
];

export interface GitResult {
  ok: boolean;
  stdout: string;
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
  /** Written to git's stdin (a patch for `git apply`), which is then closed. */
  input?: string | Buffer;
}

/**
 * Runs git without a shell, a pager, a credential prompt or optional locks (a status never blocks
 * a concurrent commit), killed at the deadline so a slow disk or a hung mount cannot hold a caller.
 * Always the git resolved at start, with hooks and fsmonitor off (GIT_HARDENING).
 */
export async function git(
  args: readonly string[],
  cwd: string,
  timeoutMs = GIT_TIMEOUT_MS,
  opts: GitOptions = {},
): Promise<GitResult> {
  // Commands that read or write files of the work tree run the repository's filter drivers.
  const touchesTree = TREE_COMMANDS.has(args[0] === 'worktree' ? `worktree ${args[1]}` : args[0]!);
  const filters = touchesTree ? await neutralizedFilters(cwd, timeoutMs, opts.env) : [];
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

function runGit(
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  opts: GitOptions = {},
): Promise<GitResult> {
  return new Promise((resolve) => {
    if (!GIT) {
      resolve({
        ok: false,
        stdout: '',
        error: `git is not installed in ${SYSTEM_DIRS_TEXT} (the host runs git only from there)`,
      });
      return;
    }
    const child = execFile(
      GIT,
      [...GIT_HARDENING, ...args],
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          GIT_PAGER: 'cat',
          PAGER: 'cat',
          LC_ALL: 'C',
          ...opts.env,
        },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, stdout, error: '' });
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        const why = e.killed
          ? `git ${args[0]} took longer than ${timeoutMs / 1000} s`
          : e.code === 'ENOENT'
            ? 'git is not installed'
            : stderr.trim() || e.message;
        resolve({ ok: false, stdout, error: why });
      },
    );
    // git exits before reading all of a patch it refuses: the pipe's EPIPE is not the answer.
    child.stdin?.on('error', () => {});
    child.stdin?.end(opts.input);
  });
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

const SYSTEM_DIRS_TEXT = 'the system directories or a PATH entry outside home and temp dirs';

/**
 * `-c filter.X.clean= -c filter.X.smudge= -c filter.X.process=` for every filter driver the
 * repository's config defines, so a command touching the work tree runs none of them. Reading
 * the config runs nothing.
 */
async function neutralizedFilters(
  cwd: string,
  timeoutMs: number,
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

import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';
import { hostToolDirs, resolveHostTool } from './host-tools';

// The one place the host runs git: the project registry and its worktrees (git.ts), checkpoints
// and rewind (checkpoints/shadow-git.ts) all come here. Lint keeps it so (build/eslint.config.js:
// only the program owners listed there may import child_process, and nothing spawns 'git' by
// name). The binary is the one resolved when the host starts, from directories no shell can plant
// a program in (host-tools.ts), and git's own PATH is that list too, so a helper git starts is
// not a planted one either. Hooks and fsmonitor are off on every call, whoever asks.

/** git, resolved once when the host starts: never one a shell planted on PATH. */
const GIT = resolveHostTool('git');
/** PATH for git's own helpers: the same directories, planted ones left out. */
const GIT_PATH_ENV = hostToolDirs(process.env.PATH).join(delimiter);

/**
 * What a repository's own config (.git/config, written by whoever cloned or by a shell) must not
 * make the host run: hooks, an fsmonitor command, ext:: transports. Filter drivers are named per
 * repository and neutralized per call (git.ts).
 */
const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'protocol.ext.allow=never',
];

export interface HostGitRun {
  cwd: string;
  /** git's environment; its PATH is replaced by the host's safe one. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBuffer: number;
  input?: string | Buffer;
}

export type HostGitResult =
  | { ok: true; stdout: Buffer }
  /** `error`: git's stderr, or why it could not run (not installed, the deadline). */
  | { ok: false; stdout: Buffer; error: string };

/** Runs the host's git without a shell, killed at the deadline; never rejects. */
export function runHostGit(args: readonly string[], run: HostGitRun): Promise<HostGitResult> {
  return new Promise((resolve) => {
    if (!GIT) {
      resolve({
        ok: false,
        stdout: Buffer.alloc(0),
        error:
          'git is not installed in the system directories or a PATH entry outside home and temp dirs (the host runs git only from there)',
      });
      return;
    }
    const child = execFile(
      GIT,
      [...HARDENING, ...args],
      {
        cwd: run.cwd,
        env: { ...run.env, PATH: GIT_PATH_ENV },
        encoding: 'buffer',
        timeout: run.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: run.maxBuffer,
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, stdout });
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        const error = e.killed
          ? `took longer than ${run.timeoutMs / 1000} s`
          : e.code === 'ENOENT'
            ? 'git is not installed'
            : stderr.toString('utf8').trim() || e.message;
        resolve({ ok: false, stdout, error });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(run.input);
  });
}

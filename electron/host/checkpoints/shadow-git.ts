import { execFile } from 'node:child_process';
import { CHECKPOINT_GIT_MAX_BUFFER, CHECKPOINT_GIT_TIMEOUT_MS } from './constants';

// git over a project's working tree with the app's own repository (the shadow store) instead of
// the project's. Nothing of the project's or the user's git setup takes part: no system or global
// config, no hooks, no fsmonitor, and an environment built from scratch (a GIT_DIR or
// GIT_INDEX_FILE inherited from the user's shell would point git somewhere else).

export class CheckpointError extends Error {
  override name = 'CheckpointError';
  constructor(
    readonly code: 'git_failed' | 'missing_objects' | 'corrupt_store' | 'restore_failed',
    message: string,
  ) {
    super(message);
  }
}

export interface ShadowGitOptions {
  /** The shadow repository (a bare git directory under $MEWBO_HOME). */
  gitDir: string;
  /** The project's working tree. */
  workTree: string;
  /** The git binary to run (resolved once by the host). */
  gitPath: string;
  /** PATH for git's own helpers. */
  path: string;
}

const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.safecrlf=false',
  '-c',
  'core.symlinks=true',
  '-c',
  'core.quotePath=false',
  '-c',
  'safe.directory=*',
  '-c',
  'gc.auto=0',
];

export class ShadowGit {
  constructor(readonly opts: ShadowGitOptions) {}

  private env(extra: Record<string, string>, bare: boolean): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: this.opts.path,
      GIT_DIR: this.opts.gitDir,
      GIT_WORK_TREE: this.opts.workTree,
      GIT_INDEX_FILE: `${this.opts.gitDir}/index`,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'mewbo',
      GIT_AUTHOR_EMAIL: 'checkpoints@mewbo.invalid',
      GIT_COMMITTER_NAME: 'mewbo',
      GIT_COMMITTER_EMAIL: 'checkpoints@mewbo.invalid',
      HOME: this.opts.gitDir,
      LC_ALL: 'C',
      ...extra,
    };
    if (bare) delete env.GIT_WORK_TREE;
    return env;
  }

  /** Runs git in the working tree; resolves with stdout, throws CheckpointError with stderr. */
  run(
    args: readonly string[],
    opts: { input?: string | Buffer; env?: Record<string, string>; bare?: boolean } = {},
  ): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        this.opts.gitPath,
        [...HARDENING, ...args],
        {
          cwd: this.opts.workTree,
          env: this.env(opts.env ?? {}, opts.bare ?? false),
          encoding: 'buffer',
          timeout: CHECKPOINT_GIT_TIMEOUT_MS,
          killSignal: 'SIGKILL',
          maxBuffer: CHECKPOINT_GIT_MAX_BUFFER,
        },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          const e = err as NodeJS.ErrnoException & { killed?: boolean };
          const why = e.killed
            ? `took longer than ${CHECKPOINT_GIT_TIMEOUT_MS / 1000} s`
            : e.code === 'ENOENT'
              ? 'git is not installed'
              : stderr.toString('utf8').trim() || e.message;
          reject(new CheckpointError('git_failed', `git ${args[0]}: ${why}`));
        },
      );
      child.stdin?.on('error', () => undefined);
      if (opts.input !== undefined) child.stdin?.end(opts.input);
      else child.stdin?.end();
    });
  }

  async text(
    args: readonly string[],
    opts: { input?: string | Buffer; env?: Record<string, string> } = {},
  ): Promise<string> {
    return (await this.run(args, opts)).toString('utf8');
  }
}

/** Splits NUL-terminated git output (`-z`) into its records. */
export function splitNul(out: string): string[] {
  const parts = out.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

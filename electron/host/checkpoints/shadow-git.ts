import { runHostGit } from '../projects/host-git';
import { CHECKPOINT_GIT_MAX_BUFFER, CHECKPOINT_GIT_TIMEOUT_MS } from './constants';

// git over a project's working tree with the app's own repository (the shadow store) instead of
// the project's. Nothing of the project's or the user's git setup takes part: the host's own git
// (host-git.ts, never one planted on PATH), no system or global config, no hooks, no fsmonitor,
// and an environment built from scratch (a GIT_DIR or GIT_INDEX_FILE inherited from the user's
// shell would point git somewhere else).

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
}

/** On top of host-git.ts's: the tree is stored byte for byte, whatever the project says. */
const HARDENING = [
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
  async run(
    args: readonly string[],
    opts: { input?: string | Buffer; env?: Record<string, string>; bare?: boolean } = {},
  ): Promise<Buffer> {
    const r = await runHostGit([...HARDENING, ...args], {
      cwd: this.opts.workTree,
      env: this.env(opts.env ?? {}, opts.bare ?? false),
      timeoutMs: CHECKPOINT_GIT_TIMEOUT_MS,
      maxBuffer: CHECKPOINT_GIT_MAX_BUFFER,
      input: opts.input,
    });
    if (!r.ok) throw new CheckpointError('git_failed', `git ${args[0]}: ${r.error}`);
    return r.stdout;
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

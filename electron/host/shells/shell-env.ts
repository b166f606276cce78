import { SHELL_TOKEN_VAR } from './process-tree';

// The environment every shell command gets: the host's, minus the app's own secrets, plus what
// keeps a command from waiting on a person who is not there (seed: PAGER=cat, GIT_PAGER=cat,
// GIT_TERMINAL_PROMPT=0 on every spawn).

/** The app's own credentials: the sandbox keeps configs/app.json away from shells, so these too. */
const SECRET_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY'];

export interface ShellEnvOptions {
  tty: boolean;
  /** The shell's private temp directory. */
  tmpDir: string;
  /** Marks every process of this shell (process-tree.ts finds strays by it). */
  token: string;
}

export function shellEnv(base: NodeJS.ProcessEnv, opts: ShellEnvOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || SECRET_VARS.includes(key) || key.startsWith('MEWBO_')) continue;
    env[key] = value;
  }
  return {
    ...env,
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    MANPAGER: 'cat',
    SYSTEMD_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    TERM: opts.tty ? 'xterm-256color' : 'dumb',
    TMPDIR: opts.tmpDir,
    [SHELL_TOKEN_VAR]: opts.token,
  };
}

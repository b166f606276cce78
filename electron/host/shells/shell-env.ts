import { BYPASS_VARS } from '../network/proxy-env';
import { SHELL_TOKEN_VAR } from './process-tree';
import { withheldNames } from './credential-env';

// The environment every shell command gets: the host's, minus every credential-looking variable
// the user did not allow (credential-env.ts, agent.shell_env_allow), plus what keeps a command
// from waiting on a person who is not there (seed: PAGER=cat, GIT_PAGER=cat,
// GIT_TERMINAL_PROMPT=0 on every spawn). A command whose network is confined also gets its
// session's egress proxy (network/proxy-env.ts), and no NO_PROXY to go around it.

export interface ShellEnvOptions {
  tty: boolean;
  /** The shell's private temp directory. */
  tmpDir: string;
  /** Marks every process of this shell (process-tree.ts finds strays by it). */
  token: string;
  /** agent.shell_env_allow: credential-looking names the user lets shells see. */
  allow?: readonly string[];
  /** The proxy variables of a command whose network is confined to its session's proxy. */
  proxy?: Record<string, string>;
}

export function shellEnv(base: NodeJS.ProcessEnv, opts: ShellEnvOptions): Record<string, string> {
  const env: Record<string, string> = {};
  const withheld = new Set([
    ...withheldNames(base, opts.allow ?? []),
    ...(opts.proxy ? BYPASS_VARS : []),
  ]);
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || withheld.has(key)) continue;
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
    ...opts.proxy,
    TMPDIR: opts.tmpDir,
    [SHELL_TOKEN_VAR]: opts.token,
  };
}

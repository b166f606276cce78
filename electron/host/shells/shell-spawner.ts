import { existsSync } from 'node:fs';
import type { AppConfig } from '../config/schema';
import type { ErrorPayload } from '../../../shared/tools/payload';
import type { SandboxStatus } from '../../../shared/tools/shell-payload';
import { rulesOverFd, type Sandbox } from '../sandbox/sandbox';
import type { WorktreeGrant } from '../sandbox/worktree-grant';
import { DEFAULT_COLS, DEFAULT_ROWS } from './constants';
import { PipeChild } from './pipe-child';
import { PtyChild } from './pty-child';
import { LaunchedPtyChild } from './launched-pty-child';
import type { ShellChild } from './shell-child';
import { shellEnv } from './shell-env';
import type { SpawnNetwork } from './shell-network';

// Turns "run this command" into a process: through the launcher (sandbox and tree supervisor)
// when it is built, else bash directly with the host's own fallbacks.

export interface SpawnSpec {
  command: string;
  cwd: string;
  /** The session root the sandbox is computed for. */
  root: string;
  config: AppConfig;
  tty: boolean;
  background: boolean;
  token: string;
  graceMs: number;
  /** A PTY's size at birth: the session's console, when one has reported its size. */
  size?: { cols: number; rows: number };
}

export interface Spawned {
  child: ShellChild;
  sandbox: SandboxStatus;
  warnings: string[];
  /** False when bash runs without the launcher: the host must sweep the tree itself. */
  supervised: boolean;
}

export interface SpawnerOptions {
  sandbox: Sandbox;
  launcher: string | null;
  /** The TMPDIR shells get. */
  tmpDir: string;
  baseEnv?: NodeJS.ProcessEnv;
  /** The network a spawn for `root` gets (its grant and proxy variables); undefined: open. */
  network?: (root: string) => Promise<SpawnNetwork | undefined>;
  /** What a spawn in this root gets of its session's git worktree (worktree-grant.ts). */
  worktree?: (root: string) => WorktreeGrant | undefined;
}

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

export class ShellSpawner {
  constructor(private readonly opts: SpawnerOptions) {}

  async spawn(spec: SpawnSpec): Promise<Spawned | { refused: ErrorPayload }> {
    const network = await this.opts.network?.(spec.root);
    const prepared = await this.opts.sandbox.prepare({
      config: spec.config,
      root: spec.root,
      tempDirs: [this.opts.tmpDir],
      terminalWriteOnly: spec.tty && !spec.background,
      network: network?.grant,
      worktree: this.opts.worktree?.(spec.root),
    });
    if ('refused' in prepared) return prepared;
    // The proxy variables only where the kernel holds the grant: with the network open they would
    // send well-behaved tools through a policy that everything else goes around.
    const status = prepared.status;
    const confined = status.mode === 'landlock' && status.network?.mode === 'proxy';
    const env = shellEnv(this.opts.baseEnv ?? process.env, {
      tty: spec.tty,
      tmpDir: this.opts.tmpDir,
      token: spec.token,
      allow: spec.config.agent.shell_env_allow,
      ...(confined && network ? { proxy: network.env } : {}),
    });
    const foreground = !spec.background;
    const launcher = this.opts.launcher;
    let file: string;
    let args: string[];
    if (launcher) {
      file = launcher;
      args = [
        ...rulesOverFd(prepared.rules),
        ...(spec.tty ? ['--ctty'] : []),
        '--host-pid',
        String(process.pid),
        '--grace-ms',
        String(spec.graceMs),
      ];
      if (!spec.tty) args.push('--merge-stderr');
      // A foreground run on a PTY still gets no terminal to read from: stdin is /dev/null and the
      // command has no controlling terminal, so a /dev/tty prompt fails instead of waiting.
      if (foreground && spec.tty) args.push('--stdin-null', '--detach-tty');
      args.push('--', SHELL, '-c', spec.command);
    } else {
      file = SHELL;
      const prefix = spec.tty ? (foreground ? 'exec </dev/null\n' : '') : 'exec 2>&1\n';
      args = ['-c', prefix + spec.command];
    }
    const writable = spec.background;
    // The rules reach the launcher on an inherited pipe (fd 3), never a path a shell could rewrite.
    const fds = launcher && prepared.rules ? [prepared.rules] : [];
    const size = { cols: spec.size?.cols ?? DEFAULT_COLS, rows: spec.size?.rows ?? DEFAULT_ROWS };
    const child: ShellChild = !spec.tty
      ? new PipeChild(file, args, { cwd: spec.cwd, env, writable, fds })
      : launcher
        ? new LaunchedPtyChild(file, args, { cwd: spec.cwd, env, ...size, writable, fds })
        : new PtyChild(file, args, { cwd: spec.cwd, env, ...size, writable });
    return {
      child,
      sandbox: prepared.status,
      warnings: prepared.warnings,
      supervised: launcher !== null,
    };
  }
}

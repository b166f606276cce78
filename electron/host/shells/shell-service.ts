import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { AppConfig } from '../config/schema';
import type { HomePaths } from '../config/paths';
import type { SandboxStatus, ShellInfo } from '../../../shared/tools/shell-payload';
import { findInstallRoot, findLauncher } from '../sandbox/launcher';
import { NetworkService } from '../network/network-service';
import { launchOverStdin, Sandbox } from '../sandbox/sandbox';
import type { WorktreeGrant } from '../sandbox/worktree-grant';
import type { ShellSink, ShellSubscription } from './output-stream';
import { limitsFrom, ShellManager } from './shell-manager';
import { ShellSpawner } from './shell-spawner';
import type { SessionShellNetwork, ShellNetwork, SpawnNetwork } from './shell-network';
import { withheldNames } from './credential-env';
import { shellEnv } from './shell-env';
import type { ErrorPayload } from '../../../shared/tools/payload';
import {
  listShellRecords,
  loadShellRecord,
  nextShellNumber,
  type ShellRecord,
} from './shell-records';
import { ShellRecordKeeper } from './shell-record-keeper';

// The host's shells: one ShellManager per session (deleting the session disposes its shells),
// one sandbox and one launcher for all. This is what tools reach as ctx.services.shells and what
// the protocol layer subscribes consoles through.

export interface ShellServiceOptions {
  paths: HomePaths;
  /** The current config (limits are read when a session's manager is created). */
  config: () => AppConfig;
  /** The app's install root; found from this file's location when omitted. */
  installRoot?: string | null;
  /** The compiled launcher; found under the install root when omitted. */
  launcher?: string | null;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Projects beyond the config (the registry's), denied to shells like configured ones. */
  registeredProjects?: () => Record<string, string>;
  /**
   * The network of the sessions' shells: by default each session's own egress proxy
   * (network/network-service.ts) with the rules of configs/app.json and nobody to ask; the host
   * gives one that knows each session's rules and mode and asks its user. Null leaves it open.
   */
  network?: ShellNetwork | null;
  /**
   * A session working in its own git worktree: what its shells get of the repository (the
   * checkout read-only, git's parts writable), for a spawn whose root is in that worktree.
   */
  worktree?: (sessionId: string, root: string) => WorktreeGrant | undefined;
}

/** This bundle's directory; a CommonJS bundle (Electron main) has no import.meta.url. */
function moduleDir(): string {
  const url = (import.meta as { url?: string }).url;
  if (url) return dirname(fileURLToPath(url));
  return process.argv[1] ? dirname(process.argv[1]) : process.cwd();
}

/** How a confined process starts: the launcher's argv, its rules at the head of stdin, its env. */
export interface ConfinedStart {
  argv: string[];
  stdinPrefix?: Buffer;
  env: NodeJS.ProcessEnv;
}

/** A command another program starts (an editor's terminal), confined: its argv and what it runs under. */
export interface ExternalLaunch {
  argv: string[];
  sandbox: SandboxStatus;
  warnings: string[];
  /** Removes what the launch needed (its rules file) once the command is done. */
  dispose(): void;
}

/** `env -i` by absolute path: the starter's PATH may not lead to the real one. */
const ENV_BIN = existsSync('/usr/bin/env') ? '/usr/bin/env' : '/bin/env';

export interface SessionShellEvent {
  sessionId: string;
  shell: ShellInfo;
}

/** An ended shell's console: its output from the cursor, then its final state. Nothing is live. */
function replayRecord(
  record: ShellRecord,
  fromCursor: number | undefined,
  sink: ShellSink,
): ShellSubscription {
  const from = Math.max(record.start, fromCursor ?? record.start);
  const data = record.output.slice(from - record.start);
  const missed =
    fromCursor !== undefined && fromCursor < record.start ? record.start - fromCursor : 0;
  if (data)
    sink({
      type: 'shell_output',
      shell_id: record.info.shell_id,
      cursor: from,
      data,
      ...(missed ? { missed_characters: missed } : {}),
    });
  sink({ type: 'shell_state', shell: record.info });
  return { ack: () => {}, dispose: () => {} };
}

export class ShellService implements Disposable {
  readonly sandbox: Sandbox;
  private readonly managers = new Map<string, ShellManager>();
  private readonly networks = new Map<string, SessionShellNetwork>();
  private readonly network: ShellNetwork | null;
  private readonly tempRoot: string;
  private readonly launcher: string | null;
  private readonly started = new Emitter<SessionShellEvent>();
  private readonly exited = new Emitter<SessionShellEvent>();
  private readonly records: ShellRecordKeeper;
  private disposed = false;
  /** Every shell start and exit, for the protocol layer (consoles, session events). */
  readonly onDidStart = this.started.event;
  readonly onDidExit = this.exited.event;

  constructor(private readonly opts: ShellServiceOptions) {
    const installRoot =
      opts.installRoot !== undefined ? opts.installRoot : findInstallRoot(moduleDir());
    this.launcher = opts.launcher !== undefined ? opts.launcher : findLauncher(installRoot);
    this.tempRoot = mkdtempSync(join(tmpdir(), 'mewbo-shells-'));
    this.records = new ShellRecordKeeper(opts.log);
    this.sandbox = new Sandbox({
      launcher: this.launcher,
      installRoot,
      homeDir: opts.paths.home,
      log: opts.log,
      registeredProjects: opts.registeredProjects,
      // `~/` in sandbox.cache_dirs is the home the shells see.
      userHome: opts.env?.HOME,
    });
    this.network =
      opts.network !== undefined
        ? opts.network
        : new NetworkService({ config: opts.config, configFile: opts.paths.configFile });
  }

  /** Names of the host's environment shells do not get, and those the user allowed (Settings). */
  withheldEnv(): { withheld: string[]; allowed: string[] } {
    const allowed = this.opts.config().agent.shell_env_allow;
    return {
      withheld: withheldNames(this.opts.env ?? process.env, allowed),
      allowed: [...allowed],
    };
  }

  /** The sandbox state shells get under the current config (ABI, or why there is none). */
  sandboxStatus(): Promise<SandboxStatus> {
    return this.sandbox.status(this.opts.config(), this.network?.statusGrant());
  }

  /**
   * The network another confined process of a session gets (a project hook): the same grant and
   * proxy variables as its shells, so it reaches the session's proxy and listeners and nothing
   * else. Undefined: the network is open. The caller sets the variables only where the sandbox's
   * status says the kernel holds the grant (as ShellSpawner does).
   */
  async networkFor(sessionId: string, root: string): Promise<SpawnNetwork | undefined> {
    this.forSession(sessionId);
    return this.networks.get(sessionId)?.forSpawn(root);
  }

  /**
   * How another process of a session starts confined like its shells (a project's hook,
   * hooks/hook-sandbox.ts): under the launcher with the rules a shell of `root` gets (deny list,
   * write scope, worktree), the same network grant and proxy variables, the shells' environment
   * (credential-looking variables withheld, the session's TMPDIR, its token, so its strays die
   * with the session). The rules travel at the head of its stdin. Refused where a shell would be;
   * unconfined only where shells are (agent.shell_sandbox off, no Landlock), as their status says.
   */
  async confine(
    sessionId: string,
    root: string,
    argv: string[],
    env: NodeJS.ProcessEnv,
  ): Promise<ConfinedStart | { refused: ErrorPayload }> {
    const prepared = await this.prepareConfined(sessionId, root, env, 'hook.');
    if ('refused' in prepared) return prepared;
    if (!this.launcher) return { argv, env: prepared.env };
    return { ...launchOverStdin(this.launcher, prepared.rules, argv), env: prepared.env };
  }

  /**
   * How a command of a session runs confined when another program starts it: an editor's
   * terminal (`mewbo acp`, terminal/create), which can hand the launcher neither a descriptor nor
   * stdin. Its argv is the launcher around `bash -c command` under exactly the rules, network
   * grant and scrubbed environment a shell of `root` gets: a `sh` that opens the rules file on fd 3
   * and replaces itself with `env -i` (the shells' environment, nothing of the starter's) and the
   * launcher. The rules file is owner-only under $MEWBO_HOME, which no confined command reaches, so
   * nothing the agent runs can rewrite it; `dispose` removes it once the command is done.
   * Unconfined only where shells are (agent.shell_sandbox off, no Landlock), as `sandbox` says.
   * `tokenSuffix` names the command's processes under the manager's token: a background shell's
   * own (`shell_N.`), so killing that shell sweeps what its tree left, as for the app's shells.
   */
  async launchFor(
    sessionId: string,
    root: string,
    command: string,
    tokenSuffix = 'editor.',
  ): Promise<ExternalLaunch | { refused: ErrorPayload }> {
    const prepared = await this.prepareConfined(
      sessionId,
      root,
      this.opts.env ?? process.env,
      tokenSuffix,
    );
    if ('refused' in prepared) return prepared;
    const pairs = Object.entries(prepared.env).map(([k, v]) => `${k}=${v}`);
    const shell = ['/bin/bash', '-c', `exec 2>&1\n${command}`];
    if (!this.launcher)
      return {
        argv: [ENV_BIN, '-i', ...pairs, ...shell],
        sandbox: prepared.status,
        warnings: prepared.warnings,
        dispose: () => {},
      };
    const launcher = [
      this.launcher,
      '--merge-stderr',
      '--grace-ms',
      String(this.opts.config().shells.kill_grace_ms),
    ];
    if (!prepared.rules)
      return {
        argv: [ENV_BIN, '-i', ...pairs, ...launcher, '--', ...shell],
        sandbox: prepared.status,
        warnings: prepared.warnings,
        dispose: () => {},
      };
    const dir = join(this.opts.paths.stateDir, 'launch-rules');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${randomBytes(12).toString('hex')}.rules`);
    writeFileSync(file, prepared.rules, { mode: 0o600, flag: 'wx' });
    return {
      // A rules file that cannot be opened stops `sh` before the launcher: never unconfined.
      argv: [
        '/bin/sh',
        '-c',
        'exec 3<"$0" && exec "$@"',
        file,
        ENV_BIN,
        '-i',
        ...pairs,
        ...launcher,
        '--rules-fd',
        '3',
        '--',
        ...shell,
      ],
      sandbox: prepared.status,
      warnings: prepared.warnings,
      dispose: () => rmSync(file, { force: true }),
    };
  }

  /** The rules, status and environment a confined process of `root` gets, as its shells do. */
  private async prepareConfined(
    sessionId: string,
    root: string,
    env: NodeJS.ProcessEnv,
    tokenSuffix: string,
  ) {
    const network = await this.networkFor(sessionId, root);
    const manager = this.forSession(sessionId);
    const config = this.opts.config();
    const tmpDir = this.tmpDirOf(sessionId);
    const prepared = await this.sandbox.prepare({
      config,
      root,
      tempDirs: [tmpDir],
      network: network?.grant,
      worktree: this.opts.worktree?.(sessionId, root),
    });
    if ('refused' in prepared) return prepared;
    const status = prepared.status;
    const proxied = status.mode === 'landlock' && status.network?.mode === 'proxy';
    const childEnv = shellEnv(env, {
      tty: false,
      tmpDir,
      token: `${manager.tokenPrefix}${tokenSuffix}`,
      allow: config.agent.shell_env_allow,
      ...(proxied && network ? { proxy: network.env } : {}),
    });
    return { ...prepared, env: childEnv };
  }

  /** A session's shells' own temp directory (their TMPDIR, writable under every write scope). */
  private tmpDirOf(sessionId: string): string {
    return join(this.tempRoot, `tmp-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`);
  }

  /** The shells of one session, created on first use. */
  forSession(sessionId: string): ShellManager {
    if (this.disposed) throw new Error('the shell service is disposed');
    let manager = this.managers.get(sessionId);
    if (!manager) {
      const tmpDir = this.tmpDirOf(sessionId);
      mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
      const spawner = new ShellSpawner({
        sandbox: this.sandbox,
        launcher: this.launcher,
        tmpDir,
        baseEnv: this.opts.env,
        network: async (root) => this.networks.get(sessionId)?.forSpawn(root),
        worktree: (root) => this.opts.worktree?.(sessionId, root),
      });
      const m = new ShellManager({
        spawner,
        limits: limitsFrom(this.opts.config()),
        firstBackground: nextShellNumber(listShellRecords(this.recordsDir(sessionId))),
      });
      manager = m;
      // The session's network knows its processes by the manager's token, and tells it refusals.
      const network = this.network?.forSession(
        sessionId,
        {
          tokenPrefix: m.tokenPrefix,
          running: () => m.hasRunning(),
        },
        (shellId, reason) => m.noteRefused(shellId, reason),
      );
      if (network) this.networks.set(sessionId, network);
      m.onDidStart((shell) => {
        const session = m.get(shell.shell_id);
        if (session?.background) this.records.keep(this.recordsDir(sessionId), session);
        this.started.fire({ sessionId, shell });
      });
      m.onDidExit((shell) => this.exited.fire({ sessionId, shell }));
      this.managers.set(sessionId, manager);
    }
    return manager;
  }

  private recordsDir(sessionId: string): string {
    return join(this.opts.paths.sessionsDir, sessionId, 'shells');
  }

  /** Live shells, then those a previous run of the host recorded (ended). */
  list(sessionId: string): ShellInfo[] {
    const live = this.managers.get(sessionId)?.list() ?? [];
    const ids = new Set(live.map((s) => s.shell_id));
    const ended = listShellRecords(this.recordsDir(sessionId), ids).map((r) => r.info);
    return [...ended, ...live];
  }

  /**
   * A console's stream of one shell: live, or, for a shell an earlier run of the host recorded,
   * its final state and retained output. Null when there is no such shell.
   */
  subscribe(
    sessionId: string,
    shellId: string,
    fromCursor: number | undefined,
    sink: ShellSink,
  ): ShellSubscription | null {
    const live = this.managers.get(sessionId)?.subscribe(shellId, fromCursor, sink);
    if (live) return live;
    const record = loadShellRecord(this.recordsDir(sessionId), shellId);
    return record ? replayRecord(record, fromCursor, sink) : null;
  }

  /** Whether a shell of the session is still running (which keeps the session open). */
  hasRunningShells(sessionId: string): boolean {
    return this.managers.get(sessionId)?.hasRunning() ?? false;
  }

  /** Kills a session's shells (the session was deleted or closed). */
  async disposeSession(sessionId: string): Promise<void> {
    const manager = this.managers.get(sessionId);
    if (!manager) return;
    this.managers.delete(sessionId);
    await manager.dispose();
    await this.networks.get(sessionId)?.dispose();
    this.networks.delete(sessionId);
    // The shells' final records land before the session's folder may be removed.
    await this.records.flush();
    rmSync(this.tmpDirOf(sessionId), { recursive: true, force: true });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.managers.values()];
    this.managers.clear();
    await Promise.all(all.map((m) => m.dispose()));
    await Promise.all([...this.networks.values()].map((n) => n.dispose()));
    this.networks.clear();
    await this.records.flush();
    rmSync(this.tempRoot, { recursive: true, force: true });
    this.started.dispose();
    this.exited.dispose();
  }
}

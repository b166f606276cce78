import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppConfig } from '../config/schema';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import type {
  NetworkStatus,
  PolicyFilesStatus,
  SandboxStatus,
} from '../../../shared/tools/shell-payload';
import { noLandlock, probeLandlock, type LandlockProbe } from './launcher';
import { buildDenyList } from './deny-list';
import { compileGrants, encodeRules } from './grant-plan';
import { normalizeGrant, type NetworkGrant } from './network-grant';
import { policyMounts } from './policy-mounts';
import { realPathLoose } from './real-path';
import type { WorktreeGrant } from './worktree-grant';

export type { NetworkGrant } from './network-grant';

// The shell sandbox as the rest of the host sees it: what state it is in (the ABI, or why there
// is none), and, per spawn, the launcher arguments that confine one command. The three failure
// outcomes stay apart: a grant that cannot be added is dropped with a warning (narrower, still
// confined); a kernel without Landlock runs unconfined, logged once and visible in every payload;
// a refused ruleset fails the spawn in the launcher with a line on stderr (exit 125). The network
// is confined only when the spawn asks for it (a NetworkGrant) and the kernel can hold it; the
// status says which, never more than is there.

/**
 * Writable under the project write scope besides the spawn's own temp directory: POSIX shared
 * memory and semaphores (shm_open, sem_open: python's multiprocessing locks, Chromium) live here
 * and nowhere else. /tmp and /var/tmp are not: every common tool honours TMPDIR, and /tmp holds
 * other sessions' temp directories and the host's own files, which one session's shell must not
 * plant in; /var/tmp outlives a reboot.
 */
const SHARED_MEMORY_DIRS = ['/dev/shm'];

/** `~/x` under `home`; an absolute path as it is. */
function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

export interface SandboxOptions {
  /** The compiled launcher, or null when it was not built. */
  launcher: string | null;
  installRoot: string | null;
  /** $MEWBO_HOME: denied whole to confined shells and servers. */
  homeDir: string;
  /** Directories a denial may not cover; default: the runtime's and the shell's. */
  protectedDirs?: string[];
  /** The user's home, where `~/` in sandbox.cache_dirs points; default: os.homedir(). */
  userHome?: string;
  platform?: NodeJS.Platform;
  log?: (line: string) => void;
  /**
   * Projects the app knows beyond configs/app.json (opened from the picker, worktrees), key to
   * path. They are denied like configured ones: a shell of one project reaches no other.
   */
  registeredProjects?: () => Record<string, string>;
}

export interface SpawnSandbox {
  status: SandboxStatus;
  /**
   * The launcher's rules, null when unconfined. They go to the launcher over an inherited
   * descriptor (rulesOverFd, rulesOverStdin), never a path: a confined command could rewrite a
   * file before the next command read it.
   */
  rules: Buffer | null;
  warnings: string[];
}

/** The descriptor a shell's launcher reads its rules from (a pipe the host writes and closes). */
export const RULES_FD = 3;

/** Launcher arguments: read the rules from the pipe on RULES_FD. */
export function rulesOverFd(rules: Buffer | null): string[] {
  return rules ? ['--rules-fd', String(RULES_FD)] : [];
}

/** Launcher arguments: read exactly the rules' length off stdin, before the program gets it. */
export function rulesOverStdin(rules: Buffer | null): string[] {
  return rules ? ['--rules-stdin', String(rules.length)] : [];
}

/**
 * A program started under the launcher with its rules at the head of its stdin (a server, a
 * project's hook): the launcher's argv, and what to write to stdin before anything else. The
 * launcher ends the program's tree when the host (this process) dies.
 */
export function launchOverStdin(
  launcher: string,
  rules: Buffer | null,
  argv: string[],
): { argv: string[]; stdinPrefix?: Buffer } {
  return {
    argv: [launcher, ...rulesOverStdin(rules), '--host-pid', String(process.pid), '--', ...argv],
    ...(rules ? { stdinPrefix: rules } : {}),
  };
}

export interface SpawnRequest {
  config: AppConfig;
  root: string;
  /** The shell's own TMPDIR, then other temp directories (writable under write scope). */
  tempDirs: string[];
  /** A foreground run on a PTY: its terminal is write-only (see grant-plan.ts). */
  terminalWriteOnly?: boolean;
  /**
   * Confine the network to these local TCP ports (network-grant.ts). Absent: the network is open,
   * and the status says so.
   */
  network?: NetworkGrant;
  /** The session works in a git worktree (worktree-grant.ts); its root is in the worktree. */
  worktree?: WorktreeGrant;
}

/** The status's network when the spawn has no grant. */
const NO_GRANT = 'no egress proxy confines it';

export class Sandbox {
  private probed: Promise<LandlockProbe> | null = null;
  private loggedUnconfined = false;
  private readonly protectedDirs: string[];
  private readonly platform: NodeJS.Platform;
  private readonly home: string;

  constructor(private readonly opts: SandboxOptions) {
    this.platform = opts.platform ?? process.platform;
    this.home = opts.userHome ?? homedir();
    this.protectedDirs = opts.protectedDirs ?? [
      dirname(realPathLoose(process.execPath)),
      dirname(realPathLoose('/bin/sh')),
    ];
  }

  /** The kernel's Landlock ABI, probed once. */
  probe(): Promise<LandlockProbe> {
    if (!this.probed) {
      const launcher = this.opts.launcher;
      this.probed =
        this.platform !== 'linux'
          ? Promise.resolve(noLandlock(`Landlock is a Linux feature; this is ${this.platform}`))
          : launcher
            ? probeLandlock(launcher)
            : Promise.resolve(noLandlock('launcher not built'));
    }
    return this.probed;
  }

  /** The state a command spawned now would run under (`network`: the grant it would get). */
  async status(config: AppConfig, network?: NetworkGrant): Promise<SandboxStatus> {
    if (!config.agent.shell_sandbox) return { mode: 'off', reason: 'agent.shell_sandbox is false' };
    if (this.platform === 'linux' && !this.opts.launcher) {
      return {
        mode: 'unavailable',
        reason:
          'the sandbox launcher is not built (run `npm run build`, which needs gcc), so shells are refused; set agent.shell_sandbox to false to run them unconfined',
      };
    }
    const probe = await this.probe();
    if (probe.abi < 1) {
      const reason = `no Landlock: ${probe.reason ?? 'unknown'}; shell commands run unconfined`;
      if (!this.loggedUnconfined) {
        this.loggedUnconfined = true;
        (this.opts.log ?? console.warn)(`[sandbox] ${reason}`);
      }
      return { mode: 'unconfined', reason };
    }
    return {
      mode: 'landlock',
      abi: probe.abi,
      write_scope: config.agent.shell_write_scope,
      network: networkStatus(probe, network),
      policy_files: policyFilesStatus(probe),
    };
  }

  /** What one spawn runs under; an error payload when shells must be refused. */
  async prepare(req: SpawnRequest): Promise<SpawnSandbox | { refused: ErrorPayload }> {
    const checked = req.network ? normalizeGrant(req.network) : null;
    if (checked && 'error' in checked)
      return { refused: errorPayload('invalid_args', checked.error) };
    const status = await this.status(req.config, req.network);
    if (status.mode === 'unavailable')
      return { refused: errorPayload('sandbox_unavailable', status.reason) };
    if (status.mode !== 'landlock') return { status, rules: null, warnings: [] };

    const deny = buildDenyList({
      config: withRegisteredProjects(req.config, this.opts.registeredProjects?.() ?? {}),
      root: req.root,
      homeDir: this.opts.homeDir,
      installRoot: this.opts.installRoot,
      protectedDirs: this.protectedDirs,
      worktreeCheckout: req.worktree?.checkout,
    });
    const plan = compileGrants({
      deny,
      writeScope: status.write_scope,
      tempDirs: [...req.tempDirs, ...SHARED_MEMORY_DIRS],
      cacheDirs: req.config.sandbox.cache_dirs.map((d) => expandHome(d, this.home)),
      home: this.home,
      terminalWriteOnly: req.terminalWriteOnly,
      gitWritable: req.worktree?.gitWritable,
    });
    const network = status.network;
    const held =
      status.policy_files?.mode === 'read_only'
        ? policyMounts(deny.root)
        : { pins: [], holds: [], warnings: [] };
    return {
      status,
      rules: encodeRules(plan.grants, {
        network: network?.mode === 'proxy' ? { connectPorts: network.connect_ports } : undefined,
        pins: held.pins,
        holds: held.holds,
      }),
      warnings: [...deny.warnings, ...plan.warnings, ...held.warnings],
    };
  }
}

/** What the status says of the network: confined only when asked for and the kernel holds it. */
function networkStatus(probe: LandlockProbe, grant: NetworkGrant | undefined): NetworkStatus {
  if (!grant) return { mode: 'open', reason: NO_GRANT };
  if (probe.networkGap) return { mode: 'open', reason: probe.networkGap };
  const checked = normalizeGrant(grant);
  if ('error' in checked) return { mode: 'open', reason: checked.error };
  return { mode: 'proxy', connect_ports: checked.ports };
}

/** Whether the project's policy files are read-only to confined commands here. */
function policyFilesStatus(probe: LandlockProbe): PolicyFilesStatus {
  return probe.mountGap ? { mode: 'writable', reason: probe.mountGap } : { mode: 'read_only' };
}

/** The config with registered projects added as projects; configured entries win on a key clash. */
function withRegisteredProjects(config: AppConfig, registered: Record<string, string>): AppConfig {
  const projects = { ...config.projects };
  for (const [key, path] of Object.entries(registered)) {
    if (key in projects) continue;
    // Stryker disable next-line StringLiteral: the deny list never reads a project's description
    projects[key] = { path, allowed_paths: [], description: '' };
  }
  return { ...config, projects };
}

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Disposable } from '../lifecycle/disposable';
import {
  CONNECT_TIMEOUT_S,
  MAX_COMMAND_OUTPUT_BYTES,
  SERVER_ALIVE_COUNT,
  SERVER_ALIVE_INTERVAL_S,
} from './constants';
import { resolveHostTool } from '../projects/host-tools';
import { HostKeyError, SshConnectError } from './host-key-error';
import { formatSshUrl, sshDestinationArgs, type SshTarget } from './ssh-url';

// The OpenSSH client is the transport (never an SSH library): the user's ~/.ssh/config, keys,
// agent, known_hosts, ProxyJump work as in a terminal. One master connection (ControlMaster)
// per host carries every command and the remote part's channel, so authentication happens once.
// The programs are looked up where no shell can plant one (host-tools.ts), as git is.

export interface SshTransportOptions {
  target: SshTarget;
  /** `ssh -F FILE`; null or absent: the user's own ~/.ssh/config. */
  configFile?: string | null;
}

export interface ExecResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** ssh's exit status for its own failures (the remote command's status otherwise). */
const SSH_FAILED = 255;

/** The OpenSSH client's programs, by absolute path. */
export interface OpenSsh {
  ssh: string;
  keyscan: string | null;
  keygen: string | null;
}

export function findOpenSsh(): OpenSsh {
  const ssh = resolveHostTool('ssh');
  if (!ssh)
    throw new SshConnectError(
      'the OpenSSH client (ssh) is not installed: install it (Debian: apt install openssh-client) to open projects on SSH hosts',
    );
  return { ssh, keyscan: resolveHostTool('ssh-keyscan'), keygen: resolveHostTool('ssh-keygen') };
}

export class SshTransport implements Disposable {
  private disposed = false;
  /** Sockets forwarded so far (each link names its own). */
  private forwards = 0;

  private constructor(
    private readonly opts: SshTransportOptions,
    private readonly programs: OpenSsh,
    /** Owner-only folder of the control socket: no other user can ride the connection. */
    private readonly controlDir: string,
  ) {}

  /** Opens the master connection. Throws HostKeyError or SshConnectError. */
  static async connect(opts: SshTransportOptions): Promise<SshTransport> {
    const programs = findOpenSsh();
    const transport = new SshTransport(opts, programs, mkdtempSync(join(tmpdir(), 'mewbo-ssh-')));
    try {
      await transport.startMaster();
      return transport;
    } catch (err) {
      transport.dispose();
      throw err;
    }
  }

  get target(): SshTarget {
    return this.opts.target;
  }

  private get controlPath(): string {
    return join(this.controlDir, 'master');
  }

  /** Options every ssh invocation shares: never a prompt, strict host keys, the one master. */
  private commonArgs(): string[] {
    const { configFile } = this.opts;
    return [
      ...(configFile ? ['-F', configFile] : []),
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      `ControlPath=${this.controlPath}`,
    ];
  }

  private async startMaster(): Promise<void> {
    // The master goes to the background once authenticated (-f) and keeps the stderr it was
    // given: a pipe would stay open as long as the master lives, so it writes to a file.
    const errFile = join(this.controlDir, 'master.err');
    const errFd = openSync(errFile, 'w', 0o600);
    let code: number | null;
    try {
      const child = spawn(
        this.programs.ssh,
        [
          ...this.commonArgs(),
          '-o',
          'ControlMaster=yes',
          '-o',
          `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
          '-o',
          `ServerAliveInterval=${SERVER_ALIVE_INTERVAL_S}`,
          '-o',
          `ServerAliveCountMax=${SERVER_ALIVE_COUNT}`,
          '-N',
          '-f',
          ...sshDestinationArgs(this.opts.target),
        ],
        { stdio: ['ignore', 'ignore', errFd] },
      );
      code = await new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (c) => resolve(c));
      });
    } finally {
      closeSync(errFd);
    }
    if (code === 0) return;
    const stderr = readFileSync(errFile, 'utf8');
    throw await this.explain(stderr);
  }

  /** The error for ssh's own failure text: the host key's, with the offered fingerprint, or ssh's words. */
  private async explain(stderr: string): Promise<Error> {
    if (/Host key verification failed/.test(stderr)) {
      const { host, port } = await this.resolved();
      const problem = /IDENTIFICATION HAS CHANGED/.test(stderr) ? 'changed' : 'unknown';
      const [offered] = await offeredKeys(this.programs, host, port);
      return new HostKeyError(
        host,
        port,
        problem,
        offered?.fingerprint ?? null,
        formatSshUrl({ ...this.opts.target, path: '/' }),
      );
    }
    const words = stderr.trim().split('\n').slice(-3).join(' ').trim();
    return new SshConnectError(
      `cannot connect to ${this.opts.target.host} over ssh: ${words || 'ssh failed with no message'}`,
    );
  }

  private resolved(): Promise<ResolvedHost> {
    return resolveHost(this.programs, this.opts);
  }

  /** Runs `command` (one POSIX shell string) on the host; `input` becomes its stdin. */
  async exec(command: string, input?: Buffer): Promise<ExecResult> {
    const result = await runProgram(this.programs.ssh, this.channelArgs(command), input);
    if (result.code === SSH_FAILED && !this.isAlive()) throw await this.explain(result.stderr);
    return result;
  }

  /** The argv that runs `command` on the host over the master connection (another program spawns it). */
  commandArgv(command: string): string[] {
    return [this.programs.ssh, ...this.channelArgs(command)];
  }

  /** Starts `command` on the host with its stdio as pipes (a long-lived channel). */
  spawn(command: string): ChildProcess {
    return spawn(this.programs.ssh, this.channelArgs(command), { stdio: ['pipe', 'pipe', 'pipe'] });
  }

  private channelArgs(command: string): string[] {
    return [
      ...this.commonArgs(),
      '-o',
      'ControlMaster=no',
      '-T',
      ...sshDestinationArgs(this.opts.target),
      command,
    ];
  }

  /**
   * Has the master connection forward a Unix socket of its own (in the owner-only control folder,
   * beside the control socket, which already lets its owner run anything on the host) to
   * `remotePath` on the host, and returns its path. A connection to it reaches the host's socket
   * through the master alone: no ssh channel process, no process on the host relaying. Whether the
   * server allows it shows only at the first connection (it closes at once when refused).
   */
  async forwardSocket(remotePath: string): Promise<string> {
    const local = join(this.controlDir, `forward-${++this.forwards}`);
    const out = await runProgram(this.programs.ssh, [
      ...this.commonArgs(),
      '-O',
      'forward',
      '-L',
      `${local}:${remotePath}`,
      ...sshDestinationArgs(this.opts.target),
    ]);
    if (out.code !== 0)
      throw new SshConnectError(
        `the ssh connection to ${this.opts.target.host} could not forward a socket: ${out.stderr.trim() || `exit ${out.code}`}`,
      );
    return local;
  }

  /** The master's process id, or null when no master answers on the control socket. */
  async masterPid(): Promise<number | null> {
    const out = await runProgram(this.programs.ssh, [
      ...this.commonArgs(),
      '-O',
      'check',
      ...sshDestinationArgs(this.opts.target),
    ]);
    const pid = /pid=(\d+)/.exec(out.stderr)?.[1];
    return out.code === 0 && pid ? Number(pid) : null;
  }

  private isAlive(): boolean {
    try {
      readFileSync(this.controlPath);
      return true;
    } catch (err) {
      // A socket cannot be read as a file; only a missing one means the master is gone.
      return (err as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // `-O exit` ends the master and its channels; the folder goes with the socket.
    const args = [...this.commonArgs(), '-O', 'exit', ...sshDestinationArgs(this.opts.target)];
    execFile(this.programs.ssh, args, () =>
      rmSync(this.controlDir, { recursive: true, force: true }),
    );
  }
}

/** Runs an OpenSSH program to its end; its exit status is an answer, failing to start it is not. */
export function runProgram(file: string, args: string[], input?: Buffer): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { encoding: 'buffer', maxBuffer: MAX_COMMAND_OUTPUT_BYTES },
      (err, stdout, stderr) => {
        // An exit status (or a signal) is an answer; failing to start ssh at all is not.
        if (err && typeof err.code !== 'number' && !err.signal) {
          reject(err);
          return;
        }
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr: stderr.toString() });
      },
    );
    child.stdin?.end(input);
  });
}

/** What ssh makes of a destination after the config (`ssh -G`): where it connects, what it checks. */
export interface ResolvedHost {
  host: string;
  port: number;
  /** The name known_hosts files the host's key under (HostKeyAlias), null: `host` itself. */
  hostKeyAlias: string | null;
  /** Where ssh looks for, and adds, known keys (UserKnownHostsFile, `~` expanded). */
  knownHostsFiles: string[];
  /** HashKnownHosts: names are written hashed. */
  hashKnownHosts: boolean;
}

export async function resolveHost(
  programs: OpenSsh,
  opts: SshTransportOptions,
): Promise<ResolvedHost> {
  const out = await runProgram(programs.ssh, [
    ...(opts.configFile ? ['-F', opts.configFile] : []),
    '-G',
    ...sshDestinationArgs(opts.target),
  ]);
  const field = (name: string) =>
    new RegExp(`^${name} (.+)$`, 'm').exec(out.stdout.toString())?.[1]?.trim();
  const alias = field('hostkeyalias');
  return {
    host: field('hostname') ?? opts.target.host,
    port: Number(field('port') ?? opts.target.port ?? 22),
    hostKeyAlias: alias && alias !== 'none' ? alias : null,
    knownHostsFiles: (field('userknownhostsfile') ?? '~/.ssh/known_hosts')
      .split(/\s+/)
      .map((f) => (f.startsWith('~/') ? join(homedir(), f.slice(2)) : f)),
    hashKnownHosts: field('hashknownhosts') === 'yes',
  };
}

/** One key a host offers: its known_hosts line (as ssh-keyscan wrote it) and fingerprint. */
export interface OfferedKey {
  line: string;
  /** `SHA256:...` */
  fingerprint: string;
}

/** The keys `host` offers (ssh-keyscan, then ssh-keygen -l), ed25519 first; none when it is down. */
export async function offeredKeys(
  programs: OpenSsh,
  host: string,
  port: number,
): Promise<OfferedKey[]> {
  if (!programs.keyscan || !programs.keygen) return [];
  const scan = await runProgram(programs.keyscan, [
    '-T',
    String(CONNECT_TIMEOUT_S),
    '-t',
    'ed25519,ecdsa,rsa',
    '-p',
    String(port),
    host,
  ]).catch(() => null);
  const lines = (scan?.stdout.toString() ?? '')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .sort((a, b) => keyRank(a) - keyRank(b));
  const keys: OfferedKey[] = [];
  for (const line of lines) {
    const printed = await runProgram(
      programs.keygen,
      ['-l', '-f', '-'],
      Buffer.from(`${line}\n`),
    ).catch(() => null);
    const fingerprint = /\b(SHA256:\S+)/.exec(printed?.stdout.toString() ?? '')?.[1];
    if (fingerprint) keys.push({ line, fingerprint });
  }
  return keys;
}

const KEY_ORDER = ['ssh-ed25519', 'ecdsa-sha2-', 'ssh-rsa'];
function keyRank(line: string): number {
  const type = line.split(' ')[1] ?? '';
  const i = KEY_ORDER.findIndex((t) => type.startsWith(t));
  return i < 0 ? KEY_ORDER.length : i;
}

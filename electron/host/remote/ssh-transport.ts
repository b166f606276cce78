import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { sshDestinationArgs, type SshTarget } from './ssh-url';

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
interface OpenSsh {
  ssh: string;
  keyscan: string | null;
  keygen: string | null;
}

function findOpenSsh(): OpenSsh {
  const ssh = resolveHostTool('ssh');
  if (!ssh)
    throw new SshConnectError(
      'the OpenSSH client (ssh) is not installed: install it (Debian: apt install openssh-client) to open projects on SSH hosts',
    );
  return { ssh, keyscan: resolveHostTool('ssh-keyscan'), keygen: resolveHostTool('ssh-keygen') };
}

export class SshTransport implements Disposable {
  private disposed = false;

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
      return new HostKeyError(
        host,
        port,
        problem,
        await offeredFingerprint(this.programs, host, port),
      );
    }
    const words = stderr.trim().split('\n').slice(-3).join(' ').trim();
    return new SshConnectError(
      `cannot connect to ${this.opts.target.host} over ssh: ${words || 'ssh failed with no message'}`,
    );
  }

  /** The host name and port ssh really connects to, after the config's aliases (`ssh -G`). */
  private async resolved(): Promise<{ host: string; port: number }> {
    const out = await run(this.programs.ssh, [
      ...this.commonArgs(),
      '-G',
      ...sshDestinationArgs(this.opts.target),
    ]);
    const field = (name: string) =>
      new RegExp(`^${name} (.+)$`, 'm').exec(out.stdout.toString())?.[1]?.trim();
    return {
      host: field('hostname') ?? this.opts.target.host,
      port: Number(field('port') ?? this.opts.target.port ?? 22),
    };
  }

  /** Runs `command` (one POSIX shell string) on the host; `input` becomes its stdin. */
  async exec(command: string, input?: Buffer): Promise<ExecResult> {
    const result = await run(this.programs.ssh, this.channelArgs(command), input);
    if (result.code === SSH_FAILED && !this.isAlive()) throw await this.explain(result.stderr);
    return result;
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

  /** The master's process id, or null when no master answers on the control socket. */
  async masterPid(): Promise<number | null> {
    const out = await run(this.programs.ssh, [
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

function run(file: string, args: string[], input?: Buffer): Promise<ExecResult> {
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

/** The fingerprint of the key `host` offers (ssh-keyscan, then ssh-keygen -l), or null. */
async function offeredFingerprint(
  programs: OpenSsh,
  host: string,
  port: number,
): Promise<string | null> {
  if (!programs.keyscan || !programs.keygen) return null;
  const scan = await run(programs.keyscan, [
    '-T',
    String(CONNECT_TIMEOUT_S),
    '-t',
    'ed25519,ecdsa,rsa',
    '-p',
    String(port),
    host,
  ]).catch(() => null);
  const line = scan?.stdout
    .toString()
    .split('\n')
    .find((l) => l && !l.startsWith('#'));
  if (!line) return null;
  const printed = await run(programs.keygen, ['-l', '-f', '-'], Buffer.from(`${line}\n`)).catch(
    () => null,
  );
  return /\b(SHA256:\S+)/.exec(printed?.stdout.toString() ?? '')?.[1] ?? null;
}

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './temp';

// A real OpenSSH server on 127.0.0.1 for the SSH tests (issue #29): Debian's /usr/sbin/sshd in
// the foreground with its own host key, one authorized key made for the test, and a remote home
// of its own (sshd's SetEnv HOME), so the desktop's $MEWBO_HOME and the remote part's home are
// different folders though the same Unix user logs in. The client side is a config file for
// `ssh -F` naming the host alias, the key and a known_hosts holding the server's key.

export const SSHD = '/usr/sbin/sshd';

export interface Sshd {
  /** Alias the client config defines for this server (`ssh -F clientConfig ALIAS`). */
  alias: string;
  port: number;
  user: string;
  /** `ssh -F` file: HostName, Port, User, IdentityFile, UserKnownHostsFile for `alias`. */
  clientConfig: string;
  /** The known_hosts file the client config names; holds the server's key. */
  knownHosts: string;
  /** The server's host key fingerprint as `ssh-keygen -l` prints it (SHA256:...). */
  fingerprint: string;
  /** $HOME of every command the server runs. */
  remoteHome: string;
  /** Scratch space beside the server's files, for the test's own folders. */
  dir: string;
  /** Everything sshd logged (-e): one "Accepted publickey" line per authenticated connection. */
  log(): string;
  /** Writes a client config `name` naming another known_hosts file (an unknown-host test). */
  configWithKnownHosts(name: string, knownHosts: string): string;
  /**
   * The desktop side's ssh processes for this server (their command line names its client
   * config): the master connection, or the channels riding it. What a test kills to drop a link.
   */
  clientPids(kind: 'master' | 'channel'): number[];
  /** Pids of the remote part daemons running in the remote home (from their pid files). */
  daemonPids(): number[];
  /** Stops sshd and every remote part daemon it left running (they outlive their links). */
  stop(): Promise<void>;
}

/** Every process whose command line has `needle` as one of its words, with those words. */
export function processesWith(needle: string): { pid: number; argv: string[] }[] {
  const out: { pid: number; argv: string[] }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv.includes(needle)) out.push({ pid: Number(entry), argv });
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function keygen(path: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'mewbo-test', '-f', path]);
}

/** Waits for sshd's own "Server listening" line: the port is bound when it is printed. */
function listening(child: ChildProcess, log: { text: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      log.text += d.toString();
      if (log.text.includes('Server listening on')) resolve();
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sshd exited (${code}): ${log.text}`)));
  });
}

export interface SshdOptions {
  /** Environment of every command the server runs (sshd SetEnv), besides HOME. */
  env?: Record<string, string>;
  /**
   * Folders the server's commands see in place of others (remote path -> folder shown there), by a
   * bind mount in a mount namespace of their own: the host and the desktop then see different
   * files at one path, as two machines do, so a test can tell which side read a file.
   */
  hostView?: Record<string, string>;
  /** More sshd_config lines (a server that refuses something a default one allows). */
  sshdConfig?: string[];
}

/** sshd's ForceCommand: the client's command in a mount namespace where `hostView` applies. */
function hostViewCommand(dir: string, view: Record<string, string>): string {
  const script = join(dir, 'host-view.sh');
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const mounts = Object.entries(view).map(
    ([at, from]) => `mount --bind ${quote(from)} ${quote(at)}`,
  );
  // Not root: a user namespace of its own lets the same user mount.
  const unshare = process.getuid?.() === 0 ? 'unshare -m' : 'unshare -Urm';
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `exec ${unshare} --propagation private /bin/sh -c ${quote(`${mounts.join(' && ')} && exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"`)}`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return script;
}

export async function startSshd(opts: SshdOptions = {}): Promise<Sshd> {
  const tmp = tempDir('mewbo-sshd-');
  const dir = tmp.dir;
  const hostKey = join(dir, 'host_key');
  const identity = join(dir, 'id_ed25519');
  keygen(hostKey);
  keygen(identity);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, readFileSync(`${identity}.pub`));
  const remoteHome = join(dir, 'remote-home');
  mkdirSync(remoteHome);
  // Run as root, sshd insists on its privilege-separation folder (Debian makes it at boot).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorized}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'LogLevel VERBOSE',
      `SetEnv HOME=${remoteHome} ${Object.entries(opts.env ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`.trim(),
      ...(opts.hostView ? [`ForceCommand ${hostViewCommand(dir, opts.hostView)}`] : []),
      ...(opts.sshdConfig ?? []),
      '',
    ].join('\n'),
  );
  const user = userInfo().username;
  const alias = 'mewbo-test-host';
  const knownHosts = join(dir, 'known_hosts');
  const hostPub = readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostPub}\n`);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${hostKey}.pub`], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  const configWithKnownHosts = (name: string, known: string): string => {
    const path = join(dir, `ssh_config_${name}`);
    writeFileSync(
      path,
      [
        `Host ${alias} 127.0.0.1`,
        '  HostName 127.0.0.1',
        `  Port ${port}`,
        `  User ${user}`,
        `  IdentityFile ${identity}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${known}`,
        '',
      ].join('\n'),
    );
    return path;
  };

  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const log = { text: '' };
  await listening(child, log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const clientConfig = configWithKnownHosts('main', knownHosts);
  const runDir = join(remoteHome, '.mewbo-remote', 'home', 'run');
  const daemonPids = (): number[] => {
    let names: string[];
    try {
      names = readdirSync(runDir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.pid'))
      .flatMap((n) => {
        try {
          return [Number(readFileSync(join(runDir, n), 'utf8'))];
        } catch {
          return [];
        }
      })
      .filter((pid) => pid > 0 && isAlive(pid));
  };
  return {
    alias,
    port,
    user,
    clientConfig,
    knownHosts,
    fingerprint,
    remoteHome,
    dir,
    log: () => log.text,
    configWithKnownHosts,
    clientPids: (kind) =>
      processesWith(clientConfig)
        .filter((p) => p.argv.includes('ControlMaster=yes') === (kind === 'master'))
        .filter((p) => !p.argv.includes('-O') && !p.argv.includes('-G'))
        .map((p) => p.pid),
    daemonPids,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      // A daemon ends its shells on SIGTERM, then exits.
      const daemons = daemonPids();
      for (const pid of daemons) process.kill(pid, 'SIGTERM');
      for (const pid of daemons)
        for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
      tmp.cleanup();
    },
  };
}

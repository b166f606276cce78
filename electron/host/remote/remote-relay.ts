import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { DAEMON_START_TIMEOUT_MS } from './constants';
import type { DaemonFiles } from './daemon-files';

// What the SSH channel runs on the remote (issue #29 part 4): it joins the channel's stdio to the
// remote part's daemon (remote-daemon.ts), starting one when none answers, and ends with the
// channel. The daemon, not this, holds the shells: a dropped link ends only the relay.
// The app links through this only where the server refuses to forward to a Unix socket: it first
// asks for the daemon's rendezvous (rendezvous(): the daemon started, its socket and token) and
// has the master connection forward a socket of its own there (SshTransport.forwardSocket), so
// the bytes skip this process and ssh's channel process both (#29).

/** A first retry of the connect this soon after starting a daemon; each next one twice as late. */
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 500;

export interface RelayOptions {
  files: DaemonFiles;
  /** Starts a daemon process (detached: it must outlive this relay and the SSH channel). */
  startDaemon(): void;
  input: Readable;
  output: Writable;
}

/** Relays until either side ends; throws when no daemon could be reached. */
export async function relay(opts: RelayOptions): Promise<void> {
  const socket = await reachDaemon(opts);
  // The token first: the daemon refuses a link that cannot read it (a confined shell cannot).
  socket.write(`${readToken(opts.files)}\n`);
  opts.input.pipe(socket);
  socket.pipe(opts.output);
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.on('error', () => socket.destroy());
    opts.input.once('end', () => socket.end());
    opts.input.once('close', () => socket.end());
  });
}

/** What a link needs to attach to the daemon itself: its socket, and the token to send first. */
export interface Rendezvous {
  socket: string;
  token: string;
}

/** The daemon's rendezvous, the daemon started when none answers; throws when none could be. */
export async function rendezvous(
  opts: Omit<RelayOptions, 'input' | 'output'>,
): Promise<Rendezvous> {
  (await reachDaemon(opts)).destroy();
  return { socket: opts.files.socket, token: readToken(opts.files) };
}

function readToken(files: DaemonFiles): string {
  return readFileSync(files.token, 'utf8').trim();
}

async function reachDaemon(opts: Omit<RelayOptions, 'input' | 'output'>): Promise<Socket> {
  let started = false;
  let wait = FIRST_POLL_MS;
  const deadline = Date.now() + DAEMON_START_TIMEOUT_MS;
  for (;;) {
    const socket = await connect(opts.files.socket);
    // A daemon answers only once its token is in place (written before it listens... or after a
    // stale socket was replaced): a missing token means it is still starting.
    if (socket && tokenReady(opts.files.token)) return socket;
    socket?.destroy();
    if (!started) {
      opts.startDaemon();
      started = true;
    }
    if (Date.now() > deadline)
      throw new Error(
        `the remote part did not start within ${DAEMON_START_TIMEOUT_MS} ms (see ${opts.files.log})`,
      );
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, MAX_POLL_MS);
  }
}

/**
 * Starts the daemon: this node running this CLI with `argv` and `--daemon`, in a session of its
 * own with no terminal and its stdio on its log, so it outlives this relay and the SSH channel.
 */
export function spawnDaemon(dir: string, files: DaemonFiles, argv: readonly string[]): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const log = openSync(files.log, 'a', 0o600);
  spawn(process.execPath, [process.argv[1]!, 'remote-part', '--daemon', ...argv], {
    detached: true,
    stdio: ['ignore', log, log],
  }).unref();
}

function tokenReady(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim().length > 0;
  } catch {
    return false;
  }
}

function connect(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = () => resolve(null);
    socket.once('error', onError);
  });
}

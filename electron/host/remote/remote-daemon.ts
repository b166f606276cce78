import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { RemotePart } from './remote-part';
import { daemonFiles, type DaemonFiles } from './daemon-files';

// The remote part as a process of its own on the remote (issue #29 part 4): it listens on an
// owner-only Unix socket of the remote part's home, and each SSH channel reaches it through a
// relay (remote-relay.ts). A dropped link ends the relay, not this: the session's shells keep
// running, and the app's next link finds them. When no link is attached for `keepaliveMs` it ends
// them and exits.
// A confined shell runs as the same user and Landlock does not govern connect(2) on a socket
// path, so the socket alone is no boundary: a link must first send the token written beside it,
// in the folder the shells' sandbox denies (`~/.mewbo-remote`).

export interface RemoteDaemonOptions {
  part: RemotePart;
  /** Folder of the socket, token and pid files (created owner-only). */
  dir: string;
  /** The bundle version: one daemon per version. */
  version: string;
  keepaliveMs: number;
  log(line: string): void;
}

export class RemoteDaemon {
  private attached = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly opts: RemoteDaemonOptions,
    private readonly files: DaemonFiles,
    private readonly server: Server,
    private readonly token: Buffer,
    private readonly onExit: () => void,
  ) {}

  /**
   * Listens on the version's socket; resolves null when another daemon of this version already
   * answers there (two relays raced to start one). `onExit` runs once this one has stopped.
   */
  static async start(opts: RemoteDaemonOptions, onExit: () => void): Promise<RemoteDaemon | null> {
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    const files = daemonFiles(opts.dir, opts.version);
    const server = createServer();
    if (!(await listenOrFindPeer(server, files))) return null;
    const token = randomBytes(32);
    // Written whole under another name, then renamed: a relay never reads half a token.
    const pending = `${files.token}.${process.pid}`;
    writeFileSync(pending, token.toString('hex'), { mode: 0o600 });
    renameSync(pending, files.token);
    writeFileSync(files.pid, String(process.pid), { mode: 0o600 });
    const daemon = new RemoteDaemon(opts, files, server, token, onExit);
    server.on('connection', (socket) => daemon.accept(socket));
    daemon.armIdle();
    opts.log(`remote part ${opts.version} listening (pid ${process.pid})`);
    return daemon;
  }

  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(0x0a);
      if (nl === -1) {
        if (head.length > this.token.length * 4) socket.destroy();
        return;
      }
      socket.off('data', onData);
      socket.pause();
      const offered = Buffer.from(head.subarray(0, nl).toString(), 'hex');
      if (offered.length !== this.token.length || !timingSafeEqual(offered, this.token)) {
        this.opts.log('a connection without the token was refused');
        socket.destroy();
        return;
      }
      const rest = head.subarray(nl + 1);
      if (rest.length) socket.unshift(rest);
      this.attach(socket);
    };
    socket.on('data', onData);
  }

  private attach(socket: Socket): void {
    this.attached++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.opts.log(`link attached (${this.attached} now)`);
    const served = this.opts.part.serve(socket, socket);
    // Paused while the token was read: a 'data' listener alone does not restart it.
    socket.resume();
    void served.then(() => {
      socket.destroy();
      this.attached--;
      this.opts.log(`link ended (${this.attached} left)`);
      if (this.attached === 0) this.armIdle();
    });
  }

  private armIdle(): void {
    this.idleTimer = setTimeout(() => {
      this.opts.log(`no link for ${this.opts.keepaliveMs} ms: ending the shells and exiting`);
      void this.stop();
    }, this.opts.keepaliveMs);
  }

  /** Stops listening, ends every session's shells, removes the socket, token and pid files. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.server.close();
      for (const file of [this.files.socket, this.files.token, this.files.pid])
        rmSync(file, { force: true });
      await this.opts.part.dispose();
      this.onExit();
    })();
    return this.stopping;
  }
}

/**
 * Listens on the socket; false when a live daemon answers there. The socket and token of one
 * that died without stopping (SIGKILL) are removed first, so no relay reads its stale token.
 */
async function listenOrFindPeer(server: Server, files: DaemonFiles): Promise<boolean> {
  const path = files.socket;
  for (;;) {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once('error', resolve);
      server.listen(path, () => {
        server.off('error', resolve);
        resolve(null);
      });
    });
    if (!error) return true;
    if (error.code !== 'EADDRINUSE') throw error;
    if (await answers(path)) return false;
    rmSync(files.token, { force: true });
    rmSync(path, { force: true });
  }
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

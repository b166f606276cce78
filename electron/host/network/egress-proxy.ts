import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Disposable } from '../lifecycle/disposable';
import {
  HEADER_CHECK_INTERVAL_MS,
  HEADER_TIMEOUT_MS,
  MAX_EARLY_BYTES,
  MAX_HEADER_BYTES,
  RELAY_BUFFER_BYTES,
  UPSTREAM_CONNECT_TIMEOUT_MS,
} from './constants';
import { ForwardedResponse } from './forwarded-response';
import { hostText } from './host-name';
import {
  hostHeaderMismatch,
  parseAbsoluteTarget,
  parseConnectTarget,
  type Target,
} from './proxy-target';

// The egress proxy: an HTTP proxy on 127.0.0.1 and a port of its own, one per session, so the
// port a connection arrives on says whose it is (the launcher lets a session's processes reach
// only their own session's port). It speaks plain HTTP forwarding (absolute-form requests, and
// WebSocket upgrades of them) and CONNECT tunnels (HTTPS, and any other TCP protocol). Every
// destination goes through `decide`, which checks it, resolves the name and answers with the
// one address to connect to: the proxy connects to that address, never resolves again, so a
// name cannot point somewhere else between the check and the connection (DNS rebinding).
//
// node's own HTTP server is enough here and keeps one parser for the whole app: its 'connect' and
// 'upgrade' events hand over the raw socket, it answers 431 past maxHeaderSize and 408 past
// headersTimeout by itself. A tunnel's upload is a pipe(), whose flow control pauses the faster
// side (nothing is buffered past a stream's high-water mark); its download, the way the bytes of
// a large transfer flow, reads into one buffer of the tunnel's own (DownloadRelay). The proxy libraries on the registry
// (http-proxy, proxy-chain) are reverse proxies or add what this does not need (upstream
// chaining, authentication), and none checks a resolved address.

export type Admission =
  { ok: true; address: string } | { ok: false; status: 400 | 403 | 502 | 504; message: string };

type Refusal = Extract<Admission, { ok: false }>;

export type Decide = (target: Target, client: Socket, signal: AbortSignal) => Promise<Admission>;

export interface EgressProxyOptions {
  decide: Decide;
  maxHeaderBytes?: number;
  headerTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/** Headers that describe one hop, never forwarded (RFC 9110 section 7.6.1), and the proxy's own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** rawHeaders without hop-by-hop ones (and those the Connection header names). */
function endToEnd(raw: string[], keepUpgrade = false): [string, string][] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const n of raw[i + 1]!.split(',')) named.add(n.trim().toLowerCase());
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (keepUpgrade && name === 'upgrade') out.push([raw[i]!, raw[i + 1]!]);
    else if (!HOP_HEADERS.has(name) && !named.has(name)) out.push([raw[i]!, raw[i + 1]!]);
  }
  return out;
}

/**
 * What a client sends on a CONNECT or upgrade before the proxy has answered (most send nothing:
 * they wait for the 200). The socket keeps reading while the decision is made, so a client that
 * gives up is noticed at once (a paused socket would not see it close); the bytes are kept, up to
 * MAX_EARLY_BYTES, and sent first once the destination is connected.
 */
function holdEarly(client: Duplex, head: Buffer): { release(): { bytes: Buffer; ended: boolean } } {
  const chunks: Buffer[] = head.length ? [head] : [];
  let size = head.length;
  let ended = false;
  const onEnd = () => (ended = true);
  client.once('end', onEnd);
  const onData = (d: Buffer) => {
    chunks.push(d);
    size += d.length;
    if (size > MAX_EARLY_BYTES) client.destroy();
  };
  client.on('data', onData);
  client.resume();
  return {
    release() {
      client.off('data', onData);
      client.off('end', onEnd);
      client.pause();
      return { bytes: Buffer.concat(chunks), ended };
    },
  };
}

/** The Host header of a request to `target` (the port only when it is not HTTP's own). */
function authorityOf(target: Target): string {
  return target.port === 80 ? hostText(target.host) : `${hostText(target.host)}:${target.port}`;
}

/**
 * The head of `req` as the destination is to get it: origin-form, the URL's Host, the end-to-end
 * headers (no Proxy-Authorization, Proxy-Connection or other hop-by-hop header), then `extra`. A
 * body the client sent chunked is sent chunked again, and no Content-Length goes beside it, so
 * the destination reads the body's end the way the proxy did.
 */
function originHead(
  req: IncomingMessage,
  path: string,
  target: Target,
  extra: string[],
  keepUpgrade = false,
): string {
  const chunked = req.headers['transfer-encoding'] !== undefined;
  // node's server answered Expect itself; a chunked body's length is its chunks'.
  const dropped = chunked ? /^(expect|content-length)$/i : /^expect$/i;
  const headers = endToEnd(req.rawHeaders, keepUpgrade).filter(([k]) => !dropped.test(k));
  const lines = [
    `${req.method} ${path} HTTP/1.1`,
    `Host: ${authorityOf(target)}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    ...extra,
    ...(chunked ? ['Transfer-Encoding: chunked'] : []),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function refusalBody(message: string): string {
  return `${message.replace(/[\r\n]+/g, ' ')}\n`;
}

/** A whole HTTP/1.1 answer on a raw socket (CONNECT and upgrade have no ServerResponse). */
function answerRaw(socket: Duplex, status: number, message: string): void {
  const body = refusalBody(message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** What reads a destination's socket: node's onread into `buffer`, `read` deciding on each read. */
interface Relay {
  readonly buffer: Buffer;
  /** The destination's socket, set once made, so `read` can resume it. */
  from: Socket | null;
  /** onread's callback: false pauses the destination's socket. */
  read(n: number, buf: Uint8Array): boolean;
}

/**
 * The destination-to-client half of a tunnel, the way downloads flow: the destination's socket
 * reads into one buffer of the tunnel's own (node's onread), which is written to the client as it
 * is. A read the client's socket takes whole is done at once; otherwise reading pauses until the
 * write is done (the buffer is not read into while a write may still send from it). No buffer is
 * allocated per chunk, so a large download makes no garbage, and each read takes up to the whole
 * buffer, so a busy machine moves more per wake-up.
 */
class DownloadRelay implements Relay {
  readonly buffer = Buffer.allocUnsafe(RELAY_BUFFER_BYTES);
  /** The destination's socket, once made (its onread is this relay's `read`). */
  from: Socket | null = null;
  private client: Duplex | null = null;
  /** Bytes read before the client was known (a destination that speaks first). */
  private early: Buffer[] = [];

  to(client: Duplex): void {
    this.client = client;
    for (const chunk of this.early.splice(0)) client.write(chunk);
  }

  /** onread's callback: false pauses the destination's socket. */
  read(n: number, buf: Uint8Array): boolean {
    const client = this.client;
    if (!client) {
      this.early.push(Buffer.from(buf.subarray(0, n)));
      return true;
    }
    if (client.destroyed) return false;
    let waiting = false;
    client.write(buf.subarray(0, n), () => {
      if (waiting) this.from?.resume();
    });
    // Written whole at once: the buffer is free again. Else it waits in the client's queue.
    waiting = client.writableLength > 0;
    return !waiting;
  }
}

export class EgressProxy implements Disposable {
  private readonly sockets = new Set<Duplex>();
  private readonly pending = new Set<AbortController>();
  private disposed = false;

  private constructor(
    private readonly server: Server,
    private readonly opts: EgressProxyOptions,
    readonly port: number,
  ) {}

  /** Listens on 127.0.0.1 and a port the kernel picks. */
  static async listen(opts: EgressProxyOptions): Promise<EgressProxy> {
    const server = createServer({
      maxHeaderSize: opts.maxHeaderBytes ?? MAX_HEADER_BYTES,
      headersTimeout: opts.headerTimeoutMs ?? HEADER_TIMEOUT_MS,
      // A request body may take as long as it takes (an upload); only the head is timed.
      requestTimeout: 0,
      // The request line names the destination; a Host header decides nothing (proxy-target.ts).
      requireHostHeader: false,
      connectionsCheckingInterval: Math.min(
        HEADER_CHECK_INTERVAL_MS,
        opts.headerTimeoutMs ?? HEADER_TIMEOUT_MS,
      ),
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as { port: number }).port;
    const proxy = new EgressProxy(server, opts, port);
    server.on('connection', (s: Socket) => proxy.track(s));
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on(
      'connect',
      (req: IncomingMessage, s: Duplex, head: Buffer) => void proxy.tunnel(req, s, head),
    );
    server.on(
      'upgrade',
      (req: IncomingMessage, s: Duplex, head: Buffer) => void proxy.upgrade(req, s, head),
    );
    return proxy;
  }

  /** Sockets open now, both sides of every connection (for tests: nothing is left after dispose). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Bytes held in the proxy's socket buffers now, both ways (bounded by flow control). */
  get bufferedBytes(): number {
    let n = 0;
    for (const s of this.sockets) n += s.writableLength + s.readableLength;
    return n;
  }

  private track(socket: Duplex): void {
    if (this.disposed) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /**
   * Runs `decide` with a signal that aborts when the client goes away or the proxy is disposed.
   * A client whose input ends while it waits counts as gone: a process killed at its timeout
   * closes its sockets, which the proxy sees as that end (a FIN), and the kernel cannot tell it
   * from a client that only half-closed. A client that half-closes on purpose is still served
   * when no one needs to be asked (nothing then reads the signal).
   */
  private async admit(target: Target, client: Duplex): Promise<Admission> {
    const abort = new AbortController();
    const gone = () => abort.abort(new Error('the client closed the connection'));
    client.once('end', gone);
    client.once('close', gone);
    this.pending.add(abort);
    try {
      return await this.opts.decide(target, client as Socket, abort.signal);
    } catch (err) {
      return { ok: false, status: 502, message: `mewbo proxy: ${(err as Error).message}` };
    } finally {
      this.pending.delete(abort);
      client.off('end', gone);
      client.off('close', gone);
    }
  }

  /** A TCP connection to the admitted address, read by `relay`; resolves once connected. */
  private dial(address: string, port: number, relay: Relay): Promise<Socket | Refusal> {
    return new Promise((resolve) => {
      const upstream = connect({
        host: address,
        port,
        allowHalfOpen: true,
        onread: { buffer: relay.buffer, callback: (n, buf) => relay.read(n, buf) },
      });
      relay.from = upstream;
      this.track(upstream);
      const timeout = this.opts.connectTimeoutMs ?? UPSTREAM_CONNECT_TIMEOUT_MS;
      upstream.setTimeout(timeout, () => {
        upstream.destroy();
        resolve({
          ok: false,
          status: 504,
          message: `mewbo proxy: ${address}:${port} did not accept the connection within ${timeout / 1000} s`,
        });
      });
      upstream.once('error', (err) =>
        resolve({
          ok: false,
          status: 502,
          message: `mewbo proxy: could not connect to ${address}:${port}: ${err.message}`,
        }),
      );
      upstream.once('connect', () => {
        upstream.setTimeout(0);
        upstream.removeAllListeners('error');
        resolve(upstream);
      });
    });
  }

  /**
   * Both ways with flow control; each side's end half-closes the other, an error ends both. What
   * the client sent while the destination was being decided goes first (and its end, if it ended).
   */
  private splice(
    a: Duplex,
    b: Socket,
    relay: DownloadRelay,
    early: { bytes: Buffer; ended: boolean },
  ): void {
    if (early.bytes.length) b.write(early.bytes);
    relay.to(a);
    const kill = () => {
      a.destroy();
      b.destroy();
    };
    a.on('error', kill);
    b.on('error', kill);
    a.once('close', () => b.destroy());
    b.once('close', () => a.destroy());
    if (early.ended) b.end();
    else a.pipe(b);
    b.once('end', () => a.end());
  }

  /**
   * A CONNECT or an upgrade: the destination decided and connected to, `open` says the first
   * words (the 200 to the client, the request head to the destination), then both ways spliced.
   */
  private async raw(
    client: Duplex,
    head: Buffer,
    parsed: { ok: true; target: Target } | { ok: false; message: string },
    open: (upstream: Socket) => void,
  ): Promise<void> {
    client.on('error', () => client.destroy());
    const early = holdEarly(client, head);
    if (!parsed.ok) return answerRaw(client, 400, `mewbo proxy: ${parsed.message}`);
    const admission = await this.admit(parsed.target, client);
    if (client.destroyed) return;
    if (!admission.ok) return answerRaw(client, admission.status, admission.message);
    const relay = new DownloadRelay();
    const upstream = await this.dial(admission.address, parsed.target.port, relay);
    if ('ok' in upstream) return answerRaw(client, upstream.status, upstream.message);
    if (client.destroyed) return void upstream.destroy();
    open(upstream);
    this.splice(client, upstream, relay, early.release());
  }

  private tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const parsed = parseConnectTarget(req.url ?? '');
    const mismatch = parsed.ok && hostHeaderMismatch(parsed.target, req.headers.host);
    return this.raw(client, head, mismatch ? { ok: false, message: mismatch } : parsed, () =>
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
    );
  }

  /**
   * An absolute-form request: judged, then sent to the destination on a connection of its own
   * (Connection: close) as an origin-form request with the URL's Host, and its answer read by a
   * ForwardedResponse straight into the client's response. node's server parses every request a
   * client sends (one strict parser: two Content-Lengths, Content-Length beside Transfer-Encoding
   * and folded headers are answered 400 before this runs), so each request of a keep-alive
   * connection comes here and is judged on its own: the first request's destination says nothing
   * about the next one's.
   */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let upstream: Socket | null = null;
    const refuse = (status: number, message: string) => {
      upstream?.destroy();
      if (res.headersSent) return void res.destroy();
      const body = refusalBody(message);
      // The reason is named: after a destination's head failed to write half-way, node keeps the
      // reason it had taken from it ("502 OK") and fills in its own only when there is none.
      res.writeHead(status, STATUS_CODES[status], {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      // The body of a refused request is read and dropped, so the connection stays usable.
      req.resume();
    };
    const parsed = parseAbsoluteTarget(req.url ?? '');
    if (!parsed.ok) return refuse(400, `mewbo proxy: ${parsed.message}`);
    const { target, path } = parsed;
    req.pause();
    const admission = await this.admit(target, req.socket);
    if (req.socket.destroyed) return;
    if (!admission.ok) return refuse(admission.status, admission.message);
    // A pipelined request's answer waits for the one before it to own the client's socket: its
    // bytes are written there from a buffer that is reused, never queued aside.
    if (!res.socket)
      await new Promise((resolve) => {
        res.once('socket', resolve);
        req.socket.once('close', resolve);
      });
    if (req.socket.destroyed) return;
    const authority = authorityOf(target);
    const answer = new ForwardedResponse(res, req.method ?? 'GET', (message) =>
      refuse(502, `mewbo proxy: ${authority}: ${message}`),
    );
    const dialed = await this.dial(admission.address, target.port, answer);
    if ('ok' in dialed) return refuse(dialed.status, dialed.message);
    upstream = dialed;
    if (req.socket.destroyed) return void upstream.destroy();
    upstream.on('error', () => answer.ended());
    upstream.once('end', () => answer.ended());
    // The destination's connection serves this one request (it was asked to close after it).
    res.once('close', () => upstream?.destroy());
    upstream.write(originHead(req, path, target, ['Connection: close']));
    this.upload(req, upstream);
  }

  /**
   * A forwarded request's body, as node's parser decoded it: sent chunked again when the client
   * sent it chunked (originHead said so), as it is otherwise; the client is paused while the
   * destination's socket is full.
   */
  private upload(req: IncomingMessage, upstream: Socket): void {
    const chunked = req.headers['transfer-encoding'] !== undefined;
    req.on('data', (d: Buffer) => {
      if (!d.length) return;
      upstream.cork();
      if (chunked) upstream.write(`${d.length.toString(16)}\r\n`);
      upstream.write(d);
      if (chunked) upstream.write('\r\n');
      upstream.uncork();
      if (upstream.writableNeedDrain) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    if (chunked) req.once('end', () => upstream.write('0\r\n\r\n'));
    req.resume();
  }

  /** An absolute-form request with Upgrade (WebSocket over plain HTTP): forwarded, then spliced. */
  private upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const parsed = parseAbsoluteTarget(req.url ?? '');
    return this.raw(client, head, parsed, (upstream) => {
      if (parsed.ok)
        upstream.write(originHead(req, parsed.path, parsed.target, ['Connection: Upgrade'], true));
    });
  }

  /** Closes the listener and every connection, and ends every wait for a decision. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const abort of this.pending) abort.abort(new Error('the proxy was closed'));
    const closed = [
      new Promise<void>((resolve) => this.server.close(() => resolve())),
      ...[...this.sockets].map((s) =>
        s.closed ? null : new Promise<void>((resolve) => s.once('close', () => resolve())),
      ),
    ];
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections();
    await Promise.all(closed);
  }
}

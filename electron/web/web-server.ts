import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { RpcConnection } from '../host/rpc/connection';
import type { Router } from '../host/rpc/router';
import type { Disposable } from '../host/lifecycle/disposable';
import type { Duplex } from 'node:stream';
import { serveStatic } from './static-files';
import { requestPath, requestQuery } from './request-path';
import * as C from './constants';

export interface WebServerOptions {
  router: Router;
  /** Built renderer (index.html and assets). */
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** Tests shorten these; see constants.ts for the defaults' reasons. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/**
 * `mewbo serve`: the renderer over HTTP and the protocol over WebSocket on 127.0.0.1, guarded by a
 * random token in the URL and an Origin check (a page on another origin cannot drive the host).
 */
export class WebServer implements Disposable {
  readonly token: string;
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<WebSocket>();
  private nextClient = 1;

  constructor(private readonly opts: WebServerOptions) {
    this.token = opts.token ?? randomBytes(24).toString('base64url');
    const headersTimeout = opts.headersTimeoutMs ?? C.HEADERS_TIMEOUT_MS;
    this.http = createServer(
      {
        maxHeaderSize: C.MAX_HEADER_BYTES,
        headersTimeout,
        requestTimeout: Math.max(opts.requestTimeoutMs ?? C.REQUEST_TIMEOUT_MS, headersTimeout),
        connectionsCheckingInterval: Math.min(C.TIMEOUT_CHECK_MS, headersTimeout),
      },
      (req, res) =>
        this.guard(
          () => this.onRequest(req, res),
          () => failResponse(res),
        ),
    );
    this.wss = new WebSocketServer({ noServer: true, maxPayload: C.MAX_FRAME_BYTES });
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node hands an upgrading socket over without its error listener: a reset would throw.
      socket.on('error', () => socket.destroy());
      this.guard(
        () => this.onUpgrade(req, socket, head),
        () => refuse(socket, 500, 'Internal Server Error'),
      );
    });
  }

  /** No request, upgrade or frame can take the host down: a handler's bug costs its own socket. */
  private guard(work: () => void | Promise<void>, fail: () => void): void {
    const failed = (err: unknown) => {
      console.error('web host: handler failed', err);
      try {
        fail();
      } catch {
        // The socket is already gone.
      }
    };
    try {
      const pending = work();
      if (pending) pending.catch(failed);
    } catch (err) {
      failed(err);
    }
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (requestPath(req.url) !== '/ws') return refuse(socket, 404, 'Not Found');
    if (!this.authorized(req)) return refuse(socket, 403, 'Forbidden');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
  }

  async listen(): Promise<{ url: string; port: number; host: string }> {
    const host = this.opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port ?? 0, host, () => resolve());
    });
    const { port } = this.http.address() as AddressInfo;
    const shown = host.includes(':') ? `[${host}]` : host;
    return { url: `http://${shown}:${port}/?token=${this.token}`, port, host };
  }

  private origin(): string {
    const { port } = this.http.address() as AddressInfo;
    return String(port);
  }

  private authorized(req: IncomingMessage): boolean {
    const given = Buffer.from(requestQuery(req.url ?? '/').get('token') ?? '');
    const want = Buffer.from(this.token);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return false;
    // Browsers always send Origin; it must be this server. Non-browser clients (CLI, tests) send none.
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    try {
      const o = new URL(origin);
      return (
        (o.hostname === '127.0.0.1' ||
          o.hostname === 'localhost' ||
          o.hostname === '[::1]' ||
          o.hostname === (this.opts.host ?? '127.0.0.1')) &&
        o.port === this.origin()
      );
    } catch {
      return false;
    }
  }

  private onSocket(ws: WebSocket): void {
    this.connections.add(ws);
    const conn = new RpcConnection(
      this.opts.router,
      { clientId: `ws-${this.nextClient++}`, transport: 'ws' },
      (frame) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
      },
    );
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        ws.send(
          JSON.stringify({ t: 'error', error: { code: 'bad_json', message: 'frame is not JSON' } }),
        );
        return;
      }
      try {
        conn.receive(frame);
      } catch (err) {
        console.error('web host: frame handling failed', err);
        ws.close(1011, 'internal error');
      }
    });
    ws.on('close', () => {
      conn.dispose();
      this.connections.delete(ws);
    });
    ws.on('error', () => ws.terminate());
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = requestPath(req.url);
    if (path === null) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed request URL\n');
      return;
    }
    return serveStatic(this.opts.staticDir, path, req, res);
  }

  async dispose(): Promise<void> {
    for (const ws of this.connections) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

function failResponse(res: ServerResponse): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { RpcConnection } from '../host/rpc/connection';
import type { Router } from '../host/rpc/router';
import type { Disposable } from '../host/lifecycle/disposable';
import { serveStatic } from './static-files';

/** Largest client frame the web host accepts; commands are small, a user message is at most 200 KB. */
const MAX_FRAME_BYTES = 1 << 20;

export interface WebServerOptions {
  router: Router;
  /** Built renderer (index.html and assets). */
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
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
    this.http = createServer((req, res) => this.onRequest(req, res));
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
    this.http.on('upgrade', (req, socket, head) => {
      if (!this.authorized(req)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
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
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return false;
    const given = Buffer.from(url.searchParams.get('token') ?? '');
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
      conn.receive(frame);
    });
    ws.on('close', () => {
      conn.dispose();
      this.connections.delete(ws);
    });
    ws.on('error', () => ws.terminate());
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    void serveStatic(this.opts.staticDir, req, res);
  }

  async dispose(): Promise<void> {
    for (const ws of this.connections) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RpcConnection } from '../host/rpc/connection';
import type { Router } from '../host/rpc/router';
import type { Disposable } from '../host/lifecycle/disposable';
import { serveStatic } from './static-files';
import { isOwnHost, isOwnOrigin } from './loopback-request';
import { requestPath, requestQuery } from './request-path';
import { LoginCodes, type Clock } from './login-codes';
import { answerChallenge, CHALLENGE_HEADER, LoginProofVerifier, PROOF_HEADER } from './login-proof';
import { cookieName, cookieValue, readCookie, sameSecret, setCookieHeader } from './login-cookie';
import * as C from './constants';
import { binaryShellOutput } from './shell-binary-frame';
import { BINARY_SHELL_OUTPUT_PROTOCOL } from '../../shared/protocol/shell-binary';

export interface WebServerOptions {
  /**
   * The host's router, or a function that gives it once loaded: `mewbo serve` answers the page
   * and the login before it loads the host, which the first WebSocket asks for (and waits for).
   */
  router: Router | (() => Promise<Router>);
  /** Built renderer (index.html and assets). */
  staticDir: string;
  /** The persisted web secret (web-secret.ts): the login cookie and login proofs derive from it. */
  secret: Buffer;
  host?: string;
  port?: number;
  clock?: Clock;
  /** Tests shorten these; see constants.ts for the defaults' reasons. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  loginCodeTtlMs?: number;
}

/**
 * `mewbo serve`: the renderer over HTTP and the protocol over WebSocket on 127.0.0.1. The page and
 * its assets are public; the WebSocket needs the login cookie, which a one-time code buys
 * (electron/web/PROTOCOL.md), and an Origin of this server (a page on another origin cannot drive
 * the host).
 */
export class WebServer implements Disposable {
  private readonly http: Server;
  private wss?: Promise<WebSocketServer>;
  /** Upgrades still waiting for the router are refused once this is set. */
  private disposed = false;
  /** Upgrades waiting for the router (the host loading). */
  private readonly upgrading = new Set<Duplex>();
  private readonly connections = new Set<WebSocket>();
  private readonly codes: LoginCodes;
  private readonly proofs: LoginProofVerifier;
  private readonly cookie: string;
  private nextClient = 1;

  constructor(private readonly opts: WebServerOptions) {
    this.codes = new LoginCodes(opts.clock, opts.loginCodeTtlMs);
    this.proofs = new LoginProofVerifier(opts.secret, opts.clock);
    this.cookie = cookieValue(opts.secret);
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
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node hands an upgrading socket over without its error listener: a reset would throw.
      socket.on('error', () => socket.destroy());
      this.guard(
        () => this.onUpgrade(req, socket, head),
        () => refuse(socket, 500, 'Internal Server Error'),
      );
    });
  }

  /** Listens; rejects with the listen error (EADDRINUSE when the port is taken). */
  async listen(): Promise<{ port: number; host: string; origin: string }> {
    const host = this.opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port ?? 0, host, () => {
        this.http.off('error', reject);
        this.http.on('error', (err) => console.error('web host: server error', err));
        resolve();
      });
    });
    return { port: this.port, host, origin: this.origin };
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** http://127.0.0.1:PORT, the origin the UI is served from. */
  get origin(): string {
    const host = this.opts.host ?? '127.0.0.1';
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  /**
   * The origin a browser on this machine opens: the bound address, or loopback when the host
   * listens on every address (`--host 0.0.0.0` or `::`), which a browser cannot open as such.
   */
  get localOrigin(): string {
    const host = this.opts.host ?? '127.0.0.1';
    const local = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
    return `http://${local.includes(':') ? `[${local}]` : local}:${this.port}`;
  }

  /**
   * A fresh one-time login URL (what `mewbo serve` prints and `mewbo login` asks for), on
   * `origin` (a loopback name of this host's for the browser `serve --open` starts).
   */
  newLoginUrl(origin = this.origin): { url: string; expiresAt: number } {
    const { code, expiresAt } = this.codes.issue();
    return { url: `${origin}/login?code=${code}`, expiresAt };
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

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void | Promise<void> {
    if (requestPath(req.url) !== '/ws') return refuse(socket, 404, 'Not Found');
    if (
      !isOwnHost(req, this.port, this.opts.host) ||
      !isOwnOrigin(req, this.port, this.opts.host) ||
      !this.loggedIn(req)
    )
      return refuse(socket, 403, 'Forbidden');
    return this.upgradeWhenReady(req, socket, head);
  }

  private async upgradeWhenReady(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> {
    // Held until the socket is handed over: an upgraded socket is the net server's still, so
    // dispose ends it, or closing the server would wait for it.
    this.upgrading.add(socket);
    try {
      const router =
        typeof this.opts.router === 'function' ? await this.opts.router() : this.opts.router;
      // The protocol's schemas came with the host (loaded by now): not needed to answer the page.
      const { RpcConnection } = await import('../host/rpc/connection');
      const wss = await this.socketServer();
      // Disposed while the host loaded (serve stopped): a socket opened now would outlive the
      // server and keep the process alive.
      if (this.disposed) return void socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws, router, RpcConnection));
    } finally {
      this.upgrading.delete(socket);
    }
  }

  /** The WebSocket server, loaded at the first upgrade: the page and the login do not need it. */
  private socketServer(): Promise<WebSocketServer> {
    this.wss ??= import('ws').then(
      ({ WebSocketServer }) =>
        new WebSocketServer({
          noServer: true,
          maxPayload: C.MAX_FRAME_BYTES,
          // The one subprotocol: binary shell output, for a client that offers it (PROTOCOL.md).
          // Offering nothing, or only others, gets none: JSON frames.
          handleProtocols: (offered) =>
            offered.has(BINARY_SHELL_OUTPUT_PROTOCOL) ? BINARY_SHELL_OUTPUT_PROTOCOL : false,
        }),
    );
    return this.wss;
  }

  private loggedIn(req: IncomingMessage): boolean {
    return sameSecret(readCookie(req.headers.cookie, cookieName(this.port)), this.cookie);
  }

  private onSocket(ws: WebSocket, router: Router, Connection: typeof RpcConnection): void {
    this.connections.add(ws);
    const binary = ws.protocol === BINARY_SHELL_OUTPUT_PROTOCOL;
    const conn = new Connection(
      router,
      { clientId: `ws-${this.nextClient++}`, transport: 'ws' },
      (frame, topic) => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send((binary && binaryShellOutput(frame, topic)) || JSON.stringify(frame));
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
    const path = requestPath(req.url);
    if (path === null) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed request URL\n');
      return;
    }
    if (path === '/login/code') return this.onCodeRequest(req, res);
    if (path === '/login/host') return this.onHostChallenge(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/login') return this.onLogin(req, res);
    return serveStatic(this.opts.staticDir, path, req, res);
  }

  /** GET /login?code=C: a pending code buys the cookie and a redirect to the app. */
  private onLogin(req: IncomingMessage, res: ServerResponse): void {
    const code = requestQuery(req.url!).get('code') ?? '';
    const headers = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
    if (!isOwnHost(req, this.port, this.opts.host) || !code || !this.codes.redeem(code)) {
      res
        .writeHead(403, { ...headers, 'content-type': 'text/plain; charset=utf-8' })
        .end(
          'This login link is not valid: it was already used, it expired (links last a minute), ' +
            "or the app restarted since.\nGet a new one with `mewbo login`, or from the app's " +
            'menu in a browser that is logged in.\n',
        );
      return;
    }
    res
      .writeHead(303, {
        ...headers,
        location: '/',
        'set-cookie': setCookieHeader(this.port, this.cookie),
      })
      .end();
  }

  /** POST /login/code with a proof of the secret (`mewbo login`): a new one-time login URL. */
  private onCodeRequest(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (
      !isOwnHost(req, this.port, this.opts.host) ||
      !this.proofs.verify(req.headers[PROOF_HEADER] as string, req.headers.host!)
    ) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('login proof refused\n');
      return;
    }
    const { url, expiresAt } = this.newLoginUrl();
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ url, expires_at: expiresAt }) + '\n');
  }

  /**
   * POST /login/host with a challenge: the host proves it holds the secret, for the Host it was
   * asked on, before `mewbo login` sends a proof of its own (login-proof.ts).
   */
  private onHostChallenge(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const answer = isOwnHost(req, this.port, this.opts.host)
      ? answerChallenge(this.opts.secret, req.headers.host!, `${req.headers[CHALLENGE_HEADER]}`)
      : null;
    if (!answer) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('challenge refused\n');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ answer }) + '\n');
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const socket of this.upgrading) socket.destroy();
    for (const ws of this.connections) ws.terminate();
    if (this.wss) (await this.wss).close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}

function failResponse(res: ServerResponse): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

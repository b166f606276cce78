import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEVICE_SOCKET_PATH, MAX_FRAME_BYTES } from '../../../shared/device/limits';
import type { Disposable } from '../lifecycle/disposable';
import type { ListenerCertificate } from './certificate';
import type { Clock } from './clock';
import { HANDSHAKE_TIMEOUT_MS, HEARTBEAT_MS, MAX_CONNECTIONS } from './constants';
import { DeviceConnection, type ConnectionHandler } from './device-connection';
import { servePhonePage } from './phone-page';

// The app's only LAN listener: https for the phone page, wss on /ws for the device protocol, and
// nothing else (no session control, no files, no shells).

export interface PairingListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  certificate: ListenerCertificate;
  handler: ConnectionHandler;
  clock: Clock;
  /** The built phone page (dist/phone); without it the page answers "not built". */
  pageDir?: string;
  heartbeatMs?: number;
  /** How long a socket may stay unauthenticated (tests shorten it); AUTH_DEADLINE_MS by default. */
  authDeadlineMs?: number;
}

/** How long closing sockets get to finish their close handshake before they are cut. */
const CLOSE_GRACE_MS = 1000;

export class PairingListener implements Disposable {
  private readonly connections = new Map<WebSocket, DeviceConnection>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // No compression: a small compressed frame could inflate to a large one (and costs CPU).
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly heartbeat: NodeJS.Timeout;
  private disposed: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    private readonly options: PairingListenerOptions,
  ) {
    server.on('request', (req, res) => {
      servePhonePage(req, res, options.pageDir).catch(() => res.destroy());
    });
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) =>
      this.onUpgrade(req, socket, head),
    );
    // Failed handshakes (scanners, wrong protocol) cost their socket only.
    server.on('tlsClientError', (_err, socket) => socket.destroy());
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? HEARTBEAT_MS);
  }

  static listen(options: PairingListenerOptions): Promise<PairingListener> {
    const server = createServer({
      key: options.certificate.key,
      cert: options.certificate.cert,
      minVersion: 'TLSv1.2',
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      headersTimeout: HANDSHAKE_TIMEOUT_MS,
      requestTimeout: HANDSHAKE_TIMEOUT_MS * 3,
    });
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const where = `${options.host}:${options.port}`;
        reject(
          new Error(
            err.code === 'EADDRINUSE'
              ? `port ${where} is already in use`
              : `cannot listen on ${where}: ${err.message}`,
          ),
        );
      };
      server.once('error', onError);
      server.listen(options.port, options.host, () => {
        server.off('error', onError);
        server.on('error', (err) => console.error('devices: listener error', err));
        resolve(new PairingListener(server, options));
      });
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get host(): string {
    return this.options.host;
  }

  /** The phone page's address. */
  get url(): string {
    return `https://${this.host}:${this.port}/`;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  dispose(): Promise<void> {
    this.disposed ??= this.close();
    return this.disposed;
  }

  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(req.url ?? '/', 'https://device.invalid').pathname;
    if (this.disposed) return refuse(socket, 503, 'Service Unavailable');
    if (path !== DEVICE_SOCKET_PATH) return refuse(socket, 404, 'Not Found');
    if (!sameOrigin(req)) return refuse(socket, 403, 'Forbidden');
    if (this.connections.size >= MAX_CONNECTIONS) return refuse(socket, 503, 'Service Unavailable');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new DeviceConnection(
        ws,
        this.options.handler,
        this.options.clock,
        this.options.authDeadlineMs,
      );
      this.connections.set(ws, conn);
      ws.on('close', () => this.connections.delete(ws));
    });
  }

  private beat(): void {
    for (const conn of this.connections.values()) {
      if (conn.alive) conn.ping();
      else conn.terminate();
    }
  }

  private async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const sockets = [...this.connections.entries()];
    for (const [, conn] of sockets) conn.dispose();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(
        sockets.map(
          ([ws]) =>
            new Promise<void>((r) =>
              ws.readyState === ws.CLOSED ? r() : ws.once('close', () => r()),
            ),
        ),
      ),
      new Promise((r) => (grace = setTimeout(r, CLOSE_GRACE_MS))),
    ]);
    clearTimeout(grace);
    for (const [ws] of sockets) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** A browser always sends Origin: only this listener's own page may open the socket. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true; // native clients
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function refuse(socket: Socket, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

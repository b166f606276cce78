import { createHash } from 'node:crypto';
import type { createConnection } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import WebSocket from 'ws';

// A reference client of the remote frames written from electron/host/devices/PROTOCOL.md alone,
// as a native phone app would: it imports nothing of the app (no shared schemas, no host code),
// only a WebSocket library and node's TLS and crypto. Frames are plain JSON objects; the approval
// hash is computed the way the document says. If the document and the desktop disagree, the tests
// that use this client fail.

export type Frame = Record<string, unknown> & { type: string };

export class ReferenceClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly unread: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  private isClosed = false;
  private seq = 0;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      this.unread.push(frame);
      this.wake();
    });
    ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        this.wake();
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  /**
   * From the QR code's URL (`https://host:port/#code=...&fp=...`): wss://host:port/ws, pinning
   * the certificate's SHA-256 fingerprint (there is no CA).
   */
  static connect(pageUrl: string, fingerprint: string): Promise<ReferenceClient> {
    const u = new URL(pageUrl);
    const ws = new WebSocket(`wss://${u.host}/ws`, {
      rejectUnauthorized: false,
      createConnection: pinned(fingerprint),
      handshakeTimeout: 5000,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new ReferenceClient(ws)));
      ws.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.isClosed && this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }

  async pair(code: string, name: string): Promise<Frame> {
    this.send({ type: 'pair', code, device_name: name });
    return this.next((f) => f.type === 'paired' || f.type === 'error');
  }

  async hello(deviceId: string, token: string): Promise<Frame> {
    this.send({ type: 'hello', device_id: deviceId, token });
    return this.next((f) => f.type === 'welcome' || f.type === 'error');
  }

  /** Sends a version-1 remote request and returns its one reply (result or remote_error). */
  async request(type: string, body: object = {}): Promise<Frame> {
    const req_id = `r${++this.seq}`;
    this.send({ type, v: 1, req_id, ...body });
    return this.next((f) => f.req_id === req_id);
  }

  /** The next unread frame matching `pred` (others stay unread). */
  async next(pred: (f: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.unread.findIndex(pred);
      if (i >= 0) return this.unread.splice(i, 1)[0]!;
      if (this.isClosed) throw new Error('socket closed while waiting for a frame');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  close(): Promise<{ code: number; reason: string }> {
    if (!this.isClosed) this.ws.close();
    return this.closed;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** PROTOCOL.md "The approval hash": sha256 over length-prefixed UTF-8 fields, lowercase hex. */
export function documentedApprovalHash(item: {
  session_id: string;
  approval_id: string;
  tool: string;
  detail: string;
  args_json: string;
}): string {
  const fields = [
    'mewbo-approval-v1',
    item.session_id,
    item.approval_id,
    item.tool,
    item.detail,
    item.args_json,
  ];
  const text = fields.map((f) => `${Buffer.byteLength(f, 'utf8')}:${f}`).join('');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function pinned(fingerprint: string): typeof createConnection {
  return ((options: ConnectionOptions) => {
    const socket = tlsConnect({ ...options, servername: '', rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      if (socket.getPeerCertificate().fingerprint256 !== fingerprint)
        socket.destroy(new Error('certificate does not match the pinned fingerprint'));
    });
    return socket;
  }) as unknown as typeof createConnection;
}

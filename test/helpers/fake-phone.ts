import type { createConnection } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import WebSocket from 'ws';
import {
  hostFrameSchema,
  type DeclaredTool,
  type HostFrame,
  type HostFrameOf,
} from '../../shared/device/frames';

// A reference client of the device protocol (electron/host/devices/PROTOCOL.md), as a native
// phone app would implement it: wss with the certificate pinned by its fingerprint (no CA), JSON
// frames. Every frame the host sends is checked against the shared schema; a host that sent an
// invalid one fails the test through `invalidFrames`.

export interface FakePhoneOptions {
  /** wss://127.0.0.1:<port>/ws */
  url: string;
  /** The SHA-256 fingerprint from the pairing offer. */
  fingerprint: string;
  origin?: string;
  /** false: never answer the host's pings, like a phone that went to sleep mid-connection. */
  autoPong?: boolean;
}

type CallFrame = HostFrameOf<'device_tool_call'>;
export type CallHandler = (
  call: CallFrame,
) => Promise<{ ok: unknown } | { error: { code: string; message: string } }>;

export class FakePhone {
  /** Every valid frame received, in order. */
  readonly received: HostFrame[] = [];
  readonly invalidFrames: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly unread: HostFrame[] = [];
  private readonly waiters = new Set<() => void>();
  private isClosed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      let json: unknown;
      try {
        json = JSON.parse(String(data));
      } catch {
        this.invalidFrames.push(String(data));
        return;
      }
      const parsed = hostFrameSchema.safeParse(json);
      if (!parsed.success) {
        this.invalidFrames.push(json);
        return;
      }
      this.received.push(parsed.data);
      this.unread.push(parsed.data);
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

  static connect(options: FakePhoneOptions): Promise<FakePhone> {
    const ws = new WebSocket(options.url, {
      rejectUnauthorized: false,
      headers: options.origin ? { Origin: options.origin } : {},
      createConnection: pinnedConnection(options.fingerprint),
      handshakeTimeout: 5000,
      autoPong: options.autoPong ?? true,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new FakePhone(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  get isOpen(): boolean {
    return !this.isClosed && this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  /** The next unread frame of `type` (frames of other types stay unread). */
  next<T extends HostFrame['type']>(type: T, timeoutMs = 5000): Promise<HostFrameOf<T>> {
    return this.take([type], timeoutMs);
  }

  /** The next unread frame, whatever its type; rejects when the socket closes first. */
  nextFrame(timeoutMs = 5000): Promise<HostFrame> {
    return this.take(['paired', 'welcome', 'error', 'device_tool_call', 'result_ack'], timeoutMs);
  }

  /** Sends pair and returns the host's answer (paired or error). */
  async pair(
    code: string,
    deviceName = 'Test phone',
  ): Promise<HostFrameOf<'paired'> | HostFrameOf<'error'>> {
    this.send({ type: 'pair', code, device_name: deviceName });
    return this.take(['paired', 'error']);
  }

  async hello(
    deviceId: string,
    token: string,
  ): Promise<HostFrameOf<'welcome'> | HostFrameOf<'error'>> {
    this.send({ type: 'hello', device_id: deviceId, token });
    return this.take(['welcome', 'error']);
  }

  declare(tools: DeclaredTool[] | unknown[]): void {
    this.send({ type: 'declare', tools });
  }

  /** Answers every device_tool_call with `handler`, until the socket closes. */
  serve(handler: CallHandler): void {
    void (async () => {
      for (;;) {
        const call = await this.next('device_tool_call', 3_600_000).catch(() => undefined);
        if (!call) return;
        const answer = await handler(call);
        if (!this.isOpen) return;
        const base = {
          type: 'device_tool_result',
          call_id: call.call_id,
          call_token: call.call_token,
        };
        this.send(
          'ok' in answer
            ? { ...base, status: 'ok', result: answer.ok }
            : { ...base, status: 'error', error: answer.error },
        );
      }
    })();
  }

  close(): Promise<{ code: number; reason: string }> {
    if (!this.isClosed) this.ws.close();
    return this.closed;
  }

  private async take<T extends HostFrame['type']>(
    types: T[],
    timeoutMs = 5000,
  ): Promise<HostFrameOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.unread.findIndex((f) => (types as string[]).includes(f.type));
      if (i >= 0) return this.unread.splice(i, 1)[0] as HostFrameOf<T>;
      if (this.isClosed) throw new Error(`socket closed while waiting for ${types.join('/')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${types.join('/')} frame within ${timeoutMs} ms`);
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

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** A TLS socket that accepts exactly the certificate with this SHA-256 fingerprint. */
function pinnedConnection(fingerprint: string): typeof createConnection {
  return ((options: ConnectionOptions) => {
    const socket = tlsConnect({ ...options, servername: '', rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      const presented = socket.getPeerCertificate().fingerprint256;
      if (presented !== fingerprint) {
        socket.destroy(
          new Error(`certificate ${presented} does not match the pinned ${fingerprint}`),
        );
      }
    });
    return socket;
  }) as unknown as typeof createConnection;
}

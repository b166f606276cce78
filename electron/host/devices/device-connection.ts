import type { RawData, WebSocket } from 'ws';
import {
  declareFrameSchema,
  helloFrameSchema,
  pairFrameSchema,
  PHONE_FRAME_TYPES,
  resultFrameSchema,
  type DeviceErrorCode,
  type HostFrame,
  type ResultAckCode,
  type ResultFrame,
} from '../../../shared/device/frames';
import { REMOTE_VERSIONS, type DeviceRights } from '../../../shared/device/remote-frames';
import type { Disposable } from '../lifecycle/disposable';
import type { Clock } from './clock';
import * as C from './constants';
import { TokenBucket } from './rate-limiter';

// One phone's socket: the protocol's state machine (nothing but pair/hello before paired/welcome),
// frame validation, the malformed-frame and rate budgets. It knows nothing of devices or calls:
// those decisions belong to the ConnectionHandler (the hub).

type Refusal = { ok: false; code: DeviceErrorCode; message: string };
export type AuthResult = { ok: true; deviceId: string; rights: DeviceRights } | Refusal;
export type PairResult =
  { ok: true; deviceId: string; token: string; rights: DeviceRights } | Refusal;

export interface ConnectionHandler {
  pair(code: string, deviceName: string): Promise<PairResult>;
  authenticate(deviceId: string, token: string): AuthResult;
  /** Called once the socket is paired or welcomed. */
  attach(conn: DeviceConnection): void;
  /** A reason when the declaration is rejected. */
  declare(conn: DeviceConnection, tools: readonly unknown[]): string | undefined;
  result(conn: DeviceConnection, frame: ResultFrame): ResultAckCode;
  /**
   * A remote_* frame (PROTOCOL.md "Remote frames"); the handler replies on the socket itself.
   * 'malformed' counts against the socket's malformed budget (a refusal, a bad frame).
   */
  remote(conn: DeviceConnection, frame: unknown): 'ok' | 'malformed';
  /** Any frame from an attached device (last seen). */
  seen(conn: DeviceConnection): void;
  closed(conn: DeviceConnection): void;
}

type State = 'new' | 'authenticating' | 'attached' | 'closed';

/** Above this much unsent data the peer is not reading; keeping its frames would grow memory. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class DeviceConnection implements Disposable {
  private state: State = 'new';
  private id: string | undefined;
  private malformed = 0;
  private violations = 0;
  private throttled = false;
  private pairAttempts = 0;
  private readonly frames: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly authTimer: NodeJS.Timeout;
  /** Set by every pong; the listener's heartbeat terminates a socket that stayed silent. */
  alive = true;

  constructor(
    private readonly ws: WebSocket,
    private readonly handler: ConnectionHandler,
    clock: Clock,
    authDeadlineMs: number = C.AUTH_DEADLINE_MS,
  ) {
    this.frames = new TokenBucket(C.FRAME_BURST, C.FRAMES_PER_SECOND, clock);
    this.bytes = new TokenBucket(C.BYTE_BURST, C.BYTES_PER_SECOND, clock);
    this.authTimer = setTimeout(() => {
      if (this.state !== 'attached') this.close(C.CLOSE_CODES.policy, 'no pair or hello in time');
    }, authDeadlineMs);
    ws.on('message', (data, isBinary) => {
      try {
        this.onMessage(data, isBinary);
      } catch (err) {
        // A bug must cost this socket, never the host (the listener serves every phone).
        console.error('devices: frame handling failed', err);
        this.close(C.CLOSE_CODES.policy, 'internal error');
      }
    });
    ws.on('pong', () => (this.alive = true));
    // ws reports protocol violations (oversized frames: 1009) as errors, then closes the socket.
    ws.on('error', () => undefined);
    ws.on('close', () => this.onClosed());
  }

  /** The device this socket speaks for, once attached. */
  get deviceId(): string | undefined {
    return this.id;
  }

  get isAttached(): boolean {
    return this.state === 'attached';
  }

  send(frame: HostFrame): void {
    if (this.state === 'closed' || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(JSON.stringify(frame));
  }

  sendError(code: DeviceErrorCode, message: string): void {
    this.send({ type: 'error', code, message });
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.ws.close(code, reason);
    this.onClosed();
  }

  ping(): void {
    this.alive = false;
    if (this.ws.readyState === this.ws.OPEN) this.ws.ping();
  }

  terminate(): void {
    this.ws.terminate();
    this.onClosed();
  }

  dispose(): void {
    this.close(C.CLOSE_CODES.goingAway, 'listener stopping');
  }

  private onClosed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.authTimer);
    this.handler.closed(this);
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.state === 'closed') return;
    const size = rawLength(data);
    if (!this.frames.take(1) || !this.bytes.take(size)) return this.overLimit();
    this.throttled = false;
    if (isBinary) return this.reject('frames are JSON text, not binary');
    let frame: unknown;
    try {
      frame = JSON.parse(rawText(data));
    } catch (err) {
      return this.reject(`not JSON: ${(err as Error).message}`);
    }
    const type = (frame as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !(PHONE_FRAME_TYPES as readonly string[]).includes(type)) {
      const shown = typeof type === 'string' ? `"${type.slice(0, 40)}"` : `of type ${typeof type}`;
      return this.reject(
        `unknown frame type ${shown}; expected one of ${PHONE_FRAME_TYPES.join(', ')}`,
      );
    }
    if (this.state === 'attached') {
      this.handler.seen(this);
      return this.onAttachedFrame(type, frame);
    }
    if (this.state === 'authenticating')
      return this.reject('wait for paired or welcome', 'not_authenticated');
    if (type === 'pair') {
      this.onPair(frame).catch((err: unknown) => {
        console.error('devices: pairing failed', err);
        this.sendError('internal_error', 'pairing failed on the desktop; try again');
        this.close(C.CLOSE_CODES.policy, 'internal error');
      });
      return;
    }
    if (type === 'hello') return this.onHello(frame);
    return this.reject(
      `"${type}" before paired or welcome: send pair or hello first`,
      'not_authenticated',
    );
  }

  private onAttachedFrame(type: string, frame: unknown): void {
    if (type === 'pair' || type === 'hello') {
      return this.reject('this connection is already paired or welcomed', 'already_authenticated');
    }
    if (type.startsWith('remote_')) {
      if (this.handler.remote(this, frame) === 'malformed') this.countMalformed();
      return;
    }
    if (type === 'declare') {
      const parsed = declareFrameSchema.safeParse(frame);
      if (!parsed.success) return this.reject(`declare: ${firstIssue(parsed.error)}`);
      const reason = this.handler.declare(this, parsed.data.tools);
      if (reason) this.sendError('bad_declaration', reason);
      return;
    }
    const parsed = resultFrameSchema.safeParse(frame);
    if (!parsed.success) {
      const callId = (frame as { call_id?: unknown }).call_id;
      this.send({
        type: 'result_ack',
        call_id: typeof callId === 'string' ? callId.slice(0, 128) : null,
        code: 400,
      });
      return this.countMalformed();
    }
    this.send({
      type: 'result_ack',
      call_id: parsed.data.call_id,
      code: this.handler.result(this, parsed.data),
    });
  }

  private async onPair(frame: unknown): Promise<void> {
    const parsed = pairFrameSchema.safeParse(frame);
    if (!parsed.success) return this.reject(`pair: ${firstIssue(parsed.error)}`);
    this.pairAttempts += 1;
    this.state = 'authenticating';
    const result = await this.handler.pair(parsed.data.code, parsed.data.device_name);
    if ((this.state as State) === 'closed') return;
    if (!result.ok) {
      this.state = 'new';
      this.sendError(result.code, result.message);
      if (this.pairAttempts >= C.MAX_PAIR_ATTEMPTS_PER_CONNECTION) {
        this.close(C.CLOSE_CODES.authFailed, 'too many pairing attempts');
      }
      return;
    }
    this.send({
      type: 'paired',
      device_id: result.deviceId,
      token: result.token,
      rights: result.rights,
      remote_versions: [...REMOTE_VERSIONS],
    });
    this.becomeAttached(result.deviceId);
  }

  private onHello(frame: unknown): void {
    const parsed = helloFrameSchema.safeParse(frame);
    if (!parsed.success) return this.reject(`hello: ${firstIssue(parsed.error)}`);
    const result = this.handler.authenticate(parsed.data.device_id, parsed.data.token);
    if (!result.ok) {
      this.sendError(result.code, result.message);
      return this.close(C.CLOSE_CODES.authFailed, result.code);
    }
    this.send({ type: 'welcome', rights: result.rights, remote_versions: [...REMOTE_VERSIONS] });
    this.becomeAttached(result.deviceId);
  }

  private becomeAttached(deviceId: string): void {
    this.state = 'attached';
    this.id = deviceId;
    clearTimeout(this.authTimer);
    this.handler.attach(this);
  }

  private reject(reason: string, code: DeviceErrorCode = 'bad_frame'): void {
    this.sendError(code, reason);
    this.countMalformed();
  }

  private countMalformed(): void {
    this.malformed += 1;
    if (this.malformed >= C.MAX_MALFORMED_FRAMES)
      this.close(C.CLOSE_CODES.policy, 'too many malformed frames');
  }

  private overLimit(): void {
    this.violations += 1;
    // One error per burst of excess, so a flood is not answered frame for frame.
    if (!this.throttled) this.sendError('rate_limited', 'too many frames: slow down');
    this.throttled = true;
    if (this.violations >= C.MAX_RATE_VIOLATIONS)
      this.close(C.CLOSE_CODES.policy, 'rate limit exceeded');
  }
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length
    ? `${issue.path.map(String).join('.')}: ${issue.message}`
    : issue.message;
}

function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

import { hostFrameSchema, type HostFrame, type HostFrameOf } from '../../shared/device/frames';
import { DEVICE_SOCKET_PATH } from '../../shared/device/limits';
import type { DeviceRights, RemoteHostFrame } from '../../shared/device/remote-frames';
import type { Credentials } from './storage';

// The page's side of the device protocol (electron/host/devices/PROTOCOL.md): pair or hello,
// declare, answer calls; reconnect with backoff, and at once when the phone wakes or comes back
// online. Results that could not be sent (the socket died mid-call) are sent after the next
// welcome, while their call is still valid.

export type LinkState =
  | { kind: 'unpaired'; reason?: string }
  | { kind: 'connecting' }
  | { kind: 'online'; name: string }
  | { kind: 'offline'; retryInMs: number | null; reason: string };

export type CallAnswer = { ok: unknown } | { error: { code: string; message: string } };

export interface LinkOptions {
  onState(state: LinkState): void;
  onPaired(credentials: Credentials): void;
  onForgotten(): void;
  /** The declaration to send now (what the browser permits). */
  declaration(): Promise<
    { tool_id: string; description: string; parameters: Record<string, unknown> }[]
  >;
  runCall(call: HostFrameOf<'device_tool_call'>): Promise<CallAnswer>;
  onDeclarationRejected(reason: string): void;
  /** The rights this device has now: at paired/welcome, and when the user changes them. */
  onRights(rights: DeviceRights, remoteVersions: readonly number[] | undefined): void;
  /** A remote reply or push (only a device with the remote right gets them). */
  onRemote(frame: RemoteHostFrame): void;
  /** The socket closed (before any reconnect is scheduled). */
  onSocketClosed(code: number): void;
}

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** Hidden longer than the host's heartbeat: the socket may be dead without knowing it. */
const STALE_AFTER_HIDDEN_MS = 25_000;
/** Close codes after which retrying cannot help (see PROTOCOL.md). */
const FINAL_CLOSE = new Set([4001, 4003]);

export class DeviceLink {
  private ws: WebSocket | undefined;
  private credentials: Credentials | undefined;
  private pairing: { code: string; name: string } | undefined;
  private backoffMs = BACKOFF_FIRST_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private hiddenAt: number | undefined;
  private replaced = false;
  private readonly outbox: { frame: object; expiresAt: number }[] = [];

  constructor(private readonly options: LinkOptions) {
    document.addEventListener('visibilitychange', () => this.onVisibility());
    window.addEventListener('online', () => this.reconnectNow());
  }

  /** With stored credentials: connect and say hello. */
  resume(credentials: Credentials): void {
    this.credentials = credentials;
    this.open();
  }

  pair(code: string, name: string): void {
    this.pairing = { code, name };
    this.credentials = undefined;
    this.open();
  }

  /** Sends the current declaration (after a permission changed). */
  async redeclare(): Promise<void> {
    const tools = await this.options.declaration();
    this.send({ type: 'declare', tools });
  }

  forget(): void {
    this.credentials = undefined;
    this.pairing = undefined;
    this.stop();
    this.options.onForgotten();
    this.options.onState({ kind: 'unpaired' });
  }

  private open(): void {
    this.stop();
    this.replaced = false;
    this.options.onState({ kind: 'connecting' });
    const ws = new WebSocket(`wss://${location.host}${DEVICE_SOCKET_PATH}`);
    this.ws = ws;
    ws.onopen = () => {
      if (this.pairing)
        ws.send(
          JSON.stringify({ type: 'pair', code: this.pairing.code, device_name: this.pairing.name }),
        );
      else if (this.credentials)
        ws.send(
          JSON.stringify({
            type: 'hello',
            device_id: this.credentials.device_id,
            token: this.credentials.token,
          }),
        );
    };
    ws.onmessage = (event) => this.onFrame(event.data);
    ws.onclose = (event) => {
      if (this.ws === ws) this.onClosed(event.code);
    };
  }

  private stop(): void {
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
  }

  private onFrame(data: unknown): void {
    let frame: HostFrame;
    try {
      frame = hostFrameSchema.parse(JSON.parse(String(data)));
    } catch {
      return; // A frame this page does not understand (a newer host): ignore it.
    }
    switch (frame.type) {
      case 'paired': {
        const name = this.pairing?.name ?? 'Phone';
        this.pairing = undefined;
        this.credentials = { device_id: frame.device_id, token: frame.token, name };
        this.options.onPaired(this.credentials);
        this.online();
        return this.options.onRights(frame.rights, frame.remote_versions);
      }
      case 'welcome':
        this.online();
        return this.options.onRights(frame.rights, frame.remote_versions);
      case 'rights':
        return this.options.onRights(frame.rights, undefined);
      case 'device_tool_call':
        return void this.answer(frame);
      case 'error':
        return this.onError(frame.code, frame.message);
      case 'result_ack':
        return;
      default:
        return this.options.onRemote(frame);
    }
  }

  private online(): void {
    this.backoffMs = BACKOFF_FIRST_MS;
    this.options.onState({ kind: 'online', name: this.credentials?.name ?? 'Phone' });
    void this.redeclare();
    const now = Date.now();
    for (const item of this.outbox.splice(0)) if (item.expiresAt > now) this.send(item.frame);
  }

  private onError(code: string, message: string): void {
    if (code === 'bad_code' || code === 'expired_code') {
      this.pairing = undefined;
      this.stop();
      return this.options.onState({ kind: 'unpaired', reason: message });
    }
    if (code === 'bad_token' || code === 'revoked') {
      this.forget();
      return this.options.onState({
        kind: 'unpaired',
        reason: 'This phone is no longer paired: scan a new code on the desktop.',
      });
    }
    if (code === 'replaced') this.replaced = true;
    if (code === 'bad_declaration') this.options.onDeclarationRejected(message);
  }

  private onClosed(code: number): void {
    this.ws = undefined;
    this.options.onSocketClosed(code);
    if (FINAL_CLOSE.has(code) || !this.credentials) {
      if (!this.credentials && this.pairing) {
        this.pairing = undefined;
        this.options.onState({
          kind: 'unpaired',
          reason: 'Could not reach the desktop. Is pairing still on?',
        });
      }
      return;
    }
    if (this.replaced) {
      // Another tab took over; fighting it back would make both flap. Wait to be looked at.
      return this.options.onState({
        kind: 'offline',
        retryInMs: null,
        reason: 'Open in another tab',
      });
    }
    const delay = Math.round(this.backoffMs * (0.8 + Math.random() * 0.4));
    this.backoffMs = Math.min(BACKOFF_MAX_MS, this.backoffMs * 2);
    this.options.onState({ kind: 'offline', retryInMs: delay, reason: 'Lost the connection' });
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  private onVisibility(): void {
    if (document.visibilityState === 'hidden') {
      this.hiddenAt = Date.now();
      return;
    }
    const slept = this.hiddenAt !== undefined && Date.now() - this.hiddenAt > STALE_AFTER_HIDDEN_MS;
    this.hiddenAt = undefined;
    if (!this.ws || slept || this.replaced) this.reconnectNow();
  }

  private reconnectNow(): void {
    if (!this.credentials) return;
    this.backoffMs = BACKOFF_FIRST_MS;
    this.open();
  }

  private async answer(call: HostFrameOf<'device_tool_call'>): Promise<void> {
    const answer = await this.options.runCall(call);
    const base = { type: 'device_tool_result', call_id: call.call_id, call_token: call.call_token };
    const frame =
      'ok' in answer
        ? { ...base, status: 'ok', result: answer.ok }
        : { ...base, status: 'error', error: answer.error };
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
    else this.outbox.push({ frame, expiresAt: call.expires_at });
  }

  /** Sends a frame if the socket is open; false when it is not (the caller says so). */
  send(frame: object): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }
}

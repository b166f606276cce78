import type { ClientFrame, HostFrame, RpcError } from '../../../shared/protocol/wire';
import type { Topic } from '../../../shared/protocol/topics';
import { RpcFailure, type TopicSubscription, type Transport } from './transport';
import {
  BINARY_SHELL_OUTPUT_PROTOCOL,
  decodeShellOutput,
} from '../../../shared/protocol/shell-binary';

/** Reconnect delays: quick first retry, then back off to a few seconds. */
const RECONNECT_MS = [250, 500, 1000, 2000, 4000];

interface Sub {
  topic: Topic;
  cursor: number | undefined;
  onData: (data: unknown) => void;
  onError?: (e: RpcError) => void;
  /** Resubscribes after a reconnect from the last seq seen, so no session event is lost. */
  advance?: (data: unknown) => number | undefined;
}

/**
 * The protocol over WebSocket to `mewbo serve`. The browser sends the login cookie on the upgrade
 * by itself (electron/web/PROTOCOL.md); nothing secret is in the page's URL or script.
 */
export class WsTransport implements Transport {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly calls = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void }
  >();
  private readonly subs = new Map<number, Sub>();
  private readonly queue: ClientFrame[] = [];
  private readonly statusListeners = new Set<(c: boolean) => void>();
  private attempt = 0;
  private closed = false;

  /**
   * `Socket` lets Node tests drive the same client with the `ws` package. `binaryShellOutput`
   * opts this connection into binary shell_output messages (PROTOCOL.md): a shell topic's
   * listener then gets ShellOutputBytes (UTF-8 bytes, no JSON escaping) instead of the JSON frame.
   */
  constructor(
    private readonly url: string,
    private readonly Socket: typeof WebSocket = WebSocket,
    private readonly opts: { binaryShellOutput?: boolean } = {},
  ) {
    this.connect();
  }

  static fromLocation(loc: Location = window.location): WsTransport {
    const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
    return new WsTransport(`${proto}//${loc.host}/ws`, WebSocket, { binaryShellOutput: true });
  }

  private connect(): void {
    if (this.closed) return;
    const ws = this.opts.binaryShellOutput
      ? new this.Socket(this.url, [BINARY_SHELL_OUTPUT_PROTOCOL])
      : new this.Socket(this.url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      for (const [sub, s] of this.subs)
        this.sendNow({ t: 'subscribe', sub, topic: s.topic, cursor: s.cursor });
      for (const f of this.queue.splice(0)) this.sendNow(f);
      this.statusListeners.forEach((l) => l(true));
    };
    ws.onmessage = (msg) => {
      if (typeof msg.data === 'string') this.onFrame(JSON.parse(msg.data) as HostFrame);
      else this.onBinary(msg.data as ArrayBuffer);
    };
    // A refused or dropped connection reports an error, then closes: onclose reconnects. (Node's
    // `ws` throws an error nobody listens to, so the listener must exist.)
    ws.onerror = () => {};
    ws.onclose = () => {
      this.statusListeners.forEach((l) => l(false));
      for (const [, call] of this.calls)
        call.reject(
          new RpcFailure({ code: 'disconnected', message: 'connection to the host closed' }),
        );
      this.calls.clear();
      if (this.closed) return;
      const delay = RECONNECT_MS[Math.min(this.attempt++, RECONNECT_MS.length - 1)];
      setTimeout(() => this.connect(), delay);
    };
  }

  private onFrame(frame: HostFrame): void {
    if (frame.t === 'result') {
      const call = this.calls.get(frame.id);
      this.calls.delete(frame.id);
      if (!call) return;
      if (frame.ok) call.resolve(frame.value);
      else call.reject(new RpcFailure(frame.error));
    } else if (frame.t === 'event') {
      const s = this.subs.get(frame.sub);
      if (!s) return;
      const seq = (frame.data as { seq?: unknown }).seq;
      if (typeof seq === 'number' && s.topic.startsWith('session:')) s.cursor = seq + 1;
      s.onData(frame.data);
    } else if (frame.t === 'sub_error') {
      const s = this.subs.get(frame.sub);
      this.subs.delete(frame.sub);
      s?.onError?.(frame.error);
    } else {
      console.error('host error', frame.error);
    }
  }

  /** Binary messages are shell output (the only kind the host sends, and only when offered). */
  private onBinary(data: ArrayBuffer): void {
    const decoded = decodeShellOutput(data);
    if (!decoded) return console.error('host sent a binary message this client cannot read');
    this.subs.get(decoded.sub)?.onData(decoded.frame);
  }

  private sendNow(frame: ClientFrame): void {
    this.ws?.send(JSON.stringify(frame));
  }

  /**
   * While the socket is not open only calls wait in the queue. Subscriptions are (re)sent from
   * `subs` when it opens, and acks and unsubscribes belong to the old connection's subscriptions:
   * queueing them too would subscribe twice under one id (the host refuses the second, and the
   * refusal would drop the live one here).
   */
  private send(frame: ClientFrame): void {
    if (this.ws?.readyState === 1) this.sendNow(frame);
    else if (frame.t === 'invoke') this.queue.push(frame);
  }

  invoke(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.send({ t: 'invoke', id, method, params });
    });
  }

  subscribe(
    topic: Topic,
    cursor: number | undefined,
    onData: (data: unknown) => void,
    onError?: (e: RpcError) => void,
  ): TopicSubscription {
    const sub = this.nextId++;
    this.subs.set(sub, { topic, cursor, onData, onError });
    this.send({ t: 'subscribe', sub, topic, cursor });
    return {
      unsubscribe: () => {
        if (this.subs.delete(sub)) this.send({ t: 'unsubscribe', sub });
      },
      ack: (n) => this.send({ t: 'ack', sub, n }),
    };
  }

  /** Closes for good (no reconnect). */
  close(): void {
    this.closed = true;
    this.ws?.close();
  }

  onStatus(listener: (connected: boolean) => void): () => void {
    this.statusListeners.add(listener);
    // A listener added after the socket opened must still learn that it is connected.
    listener(this.ws?.readyState === 1);
    return () => this.statusListeners.delete(listener);
  }
}

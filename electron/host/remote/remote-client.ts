import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { rpcErrorSchema } from '../../../shared/protocol/wire';
import type { Disposable } from '../lifecycle/disposable';
import { HostError } from '../rpc/host-error';
import { readChannelFrames, writeLineFrame } from './channel-frames';
import { decodeShellOutput } from '../../../shared/protocol/shell-binary';
import type { RemoteCommands } from './remote-commands';
import { remoteCommands } from './remote-commands';
import { RemoteLinkError } from './remote-link-error';
import { REMOTE_ACK_HOLD_MS } from './constants';

// The app's side of the conversation with its remote part: invoke frames out over the SSH
// channel's stdin, result frames back on its stdout, each response checked against its schema.
// When the channel ends, every waiting call fails with RemoteLinkError; none is sent again.
// Subscriptions (consoles, late events) get the remote part's event frames; they end with the
// channel, and RemoteHost makes them again on the next one.

/** The last diagnostics the remote part wrote (its stderr), kept for the error a drop gives. */
const STDERR_TAIL_CHARS = 2000;

/**
 * The channel the remote part runs on: an `ssh` process's stdio (SshTransport.spawn), or a socket
 * the master forwards to it (forwarded-link.ts: no stderr, and no exit status when it closes).
 */
export interface RemoteChannel extends EventEmitter {
  stdin: Writable | null;
  stdout: Readable | null;
  stderr: Readable | null;
  kill?(): boolean;
}

type Pending = { resolve(value: unknown): void; reject(err: Error): void; method: string };

/** One subscription on the remote part: its event data to `sink`, a refusal to `onError`. */
export interface RemoteSubscription extends Disposable {
  ack(n: number): void;
}
type Subscriber = { sink(data: unknown): void; onError(err: Error): void };

export class RemoteClient implements Disposable {
  private readonly pending = new Map<number, Pending>();
  private readonly subs = new Map<number, Subscriber>();
  private nextId = 1;
  private nextSub = 1;
  private stderrTail = '';
  private ended: string | null = null;
  /** Why the app cut the link itself, if it did. */
  private cutFor: string | null = null;
  /** Resolves with the reason once the channel has ended. */
  readonly closed: Promise<string>;

  constructor(
    private readonly channel: RemoteChannel,
    private readonly where: string,
  ) {
    channel.stderr?.setEncoding('utf8');
    channel.stderr?.on('data', (d: string) => {
      this.stderrTail = (this.stderrTail + d).slice(-STDERR_TAIL_CHARS);
    });
    readChannelFrames(channel.stdout!, {
      frame: (frame) => this.onFrame(frame),
      // A console's output (channel-frames.ts): its subscriber gets it as shell_output_bytes.
      record: (message) => {
        const output = decodeShellOutput(message);
        if (output) this.subs.get(output.sub)?.sink(output.frame);
      },
      // A line that is not a frame (a login script's banner) is skipped.
      bad: () => undefined,
      broken: (what) => this.cut(`the remote part sent ${what}`),
    });
    // A write after the remote end closed is an EPIPE on stdin: the exit below reports it.
    channel.stdin!.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      channel.once('close', (code, signal) => {
        const words = this.stderrTail.trim().split('\n').slice(-3).join(' ');
        this.ended =
          this.cutFor !== null
            ? `the connection to ${this.where} was cut: ${this.cutFor}`
            : `the connection to ${this.where} ended (${signal ?? (code === null ? 'closed' : `exit ${code}`)})${words ? `: ${words}` : ''}`;
        for (const [id, p] of this.pending) {
          this.pending.delete(id);
          p.reject(
            new RemoteLinkError(
              `${this.ended}; ${p.method} was in flight and may or may not have run there: it is not run again`,
            ),
          );
        }
        this.subs.clear();
        resolve(this.ended);
      });
    });
  }

  get isOpen(): boolean {
    return this.ended === null;
  }

  invoke<K extends keyof RemoteCommands>(
    method: K,
    params: z.input<RemoteCommands[K]['request']>,
  ): Promise<z.output<RemoteCommands[K]['response']>> {
    if (this.ended !== null)
      return Promise.reject(new RemoteLinkError(`${this.ended}; ${method} was not sent`));
    const id = this.nextId++;
    const spec = remoteCommands[method];
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        method,
        reject,
        resolve: (value) => {
          const parsed = spec.response.safeParse(value);
          if (parsed.success) resolve(parsed.data as z.output<RemoteCommands[K]['response']>);
          else
            reject(
              new HostError(
                'remote_refused',
                `the remote part answered ${method} with what its protocol does not allow (${parsed.error.issues
                  .slice(0, 3)
                  .map((i) => `${i.path.join('.') || 'the answer'}: ${i.message}`)
                  .join('; ')}); nothing of that answer was used`,
              ),
            );
        },
      });
      writeLineFrame(this.channel.stdin!, { t: 'invoke', id, method, params });
    });
  }

  /**
   * Subscribes to `topic` from `cursor`; nothing comes once the channel has ended. With
   * `ackBatch`, acks are held until they add up to that many (or for REMOTE_ACK_HOLD_MS), then
   * sent as one: a console's, whose acks only pace its output. What is held when the link ends
   * goes with it: the next link's subscription starts from the cursor with nothing unacked.
   */
  subscribe(
    topic: string,
    cursor: number | undefined,
    sink: (data: unknown) => void,
    onError: (err: Error) => void,
    ackBatch = 0,
  ): RemoteSubscription {
    const sub = this.nextSub++;
    let held = 0;
    let holdTimer: NodeJS.Timeout | null = null;
    const sendHeld = () => {
      if (holdTimer) clearTimeout(holdTimer);
      holdTimer = null;
      if (held > 0 && this.subs.has(sub))
        writeLineFrame(this.channel.stdin!, { t: 'ack', sub, n: held });
      held = 0;
    };
    if (this.ended === null) {
      this.subs.set(sub, { sink, onError });
      writeLineFrame(this.channel.stdin!, {
        t: 'subscribe',
        sub,
        topic,
        ...(cursor !== undefined ? { cursor } : {}),
      });
    }
    return {
      ack: (n) => {
        if (!this.subs.has(sub) || !(n > 0)) return;
        held += n;
        if (held >= ackBatch) sendHeld();
        else holdTimer ??= setTimeout(sendHeld, REMOTE_ACK_HOLD_MS);
      },
      dispose: () => {
        if (holdTimer) clearTimeout(holdTimer);
        if (this.subs.delete(sub)) writeLineFrame(this.channel.stdin!, { t: 'unsubscribe', sub });
      },
    };
  }

  private onFrame(frame: unknown): void {
    const f = frame as {
      t?: unknown;
      id?: unknown;
      sub?: unknown;
      data?: unknown;
      ok?: unknown;
      value?: unknown;
      error?: unknown;
    };
    if (f.t === 'event' && typeof f.sub === 'number') {
      this.subs.get(f.sub)?.sink(f.data);
      return;
    }
    if (f.t === 'sub_error' && typeof f.sub === 'number') {
      const subscriber = this.subs.get(f.sub);
      this.subs.delete(f.sub);
      const error = rpcErrorSchema.safeParse(f.error);
      subscriber?.onError(
        error.success
          ? new HostError(error.data.code, error.data.message)
          : new Error('the remote part refused a subscription with a malformed error'),
      );
      return;
    }
    if (f.t !== 'result' || typeof f.id !== 'number') return;
    const p = this.pending.get(f.id);
    if (!p) return;
    this.pending.delete(f.id);
    if (f.ok === true) {
      p.resolve(f.value);
      return;
    }
    const error = rpcErrorSchema.safeParse(f.error);
    p.reject(
      error.success
        ? // Its issues too: a refused Apply names each conflicting file in one.
          new HostError(error.data.code, error.data.message, error.data.issues)
        : new Error(`the remote part answered ${p.method} with a malformed error`),
    );
  }

  /**
   * Ends the link on a stream no remote part of ours writes (a hostile or broken host): what
   * follows cannot be read as frames, and calls in flight end with the reason.
   */
  private cut(reason: string): void {
    if (this.cutFor !== null) return;
    this.cutFor = reason;
    this.channel.stdin!.end();
    this.channel.kill?.();
  }

  dispose(): void {
    // Closing stdin ends the remote part's input; the channel ends with it.
    this.channel.stdin!.end();
  }
}

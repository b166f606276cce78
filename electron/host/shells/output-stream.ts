import type { Disposable } from '../lifecycle/disposable';
import type { ShellStreamFrame } from '../../../shared/protocol/shell-stream';
import {
  FLOW_HIGH_WATERMARK_CHARS,
  FLOW_LOW_WATERMARK_CHARS,
  FLOW_SEND_WINDOW_CHARS,
  FLOW_STALL_MS,
  STREAM_BATCH_MAX_CHARS,
  STREAM_BATCH_MS,
} from './constants';
import type { RingBuffer } from './ring-buffer';

// The live stream of one shell to its subscribers (the consoles), Hyper's and VS Code's terminal
// path: output -> ring buffer -> batched frames -> sink. A subscriber is a cursor into the ring
// buffer, so replay and live output are the same loop and nothing is copied per subscriber.
// Flow control by acknowledgement (xterm.js's watermarks): while any subscriber has more than the
// high watermark produced but unacked, the producer is paused; it resumes once all are below the
// low one. Frames keep going out meanwhile (up to a send window): the PTY waits, not the socket.
// A frame shorter than the batch size goes out only when the batch timer fires (or when nothing
// more is coming: paused, exited): an ack that sent whatever had arrived since the last frame
// cut a fast producer's output into frames of 11 KB on average (#26 part 2), and each frame costs
// the same framing, syscall, decode and ack round trip whatever its size.

export type ShellSink = (frame: ShellStreamFrame) => void;

export interface ShellSubscription extends Disposable {
  /** The client consumed `n` more characters. */
  ack(n: number): void;
}

export interface Producer {
  pause(): void;
  resume(): void;
}

interface Subscriber {
  sink: ShellSink;
  /** Absolute cursor up to which output was sent. */
  sent: number;
  /** Absolute cursor up to which the client acked (skipped output counts as acked). */
  acked: number;
  lastAck: number;
  /** Stopped holding the producer: it did not ack for FLOW_STALL_MS while doing so. */
  stalled: boolean;
  /** The final state frame was sent (it follows the last output this subscriber gets). */
  finalSent: boolean;
  /** Inside flushOne: a sink that acks synchronously must not recurse into it. */
  flushing: boolean;
}

export class OutputStream implements Disposable {
  private readonly subs = new Set<Subscriber>();
  private timer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private unflushed = 0;
  private paused = false;
  private finalState: ShellStreamFrame | null = null;

  constructor(
    private readonly shellId: string,
    private readonly ring: RingBuffer,
    private readonly producer: Producer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the producer is paused for a subscriber right now. */
  get isPaused(): boolean {
    return this.paused;
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  subscribe(
    fromCursor: number | undefined,
    sink: ShellSink,
    snapshot: ShellStreamFrame,
  ): ShellSubscription {
    const start = Math.min(fromCursor ?? this.ring.start, this.ring.end);
    const sub: Subscriber = {
      sink,
      sent: start,
      acked: start,
      lastAck: this.now(),
      stalled: false,
      finalSent: false,
      flushing: false,
    };
    this.subs.add(sub);
    sink(snapshot);
    this.flushOne(sub);
    this.updateFlow();
    return {
      ack: (n) => {
        if (!this.subs.has(sub) || !Number.isFinite(n) || n <= 0) return;
        sub.acked = Math.min(sub.sent, sub.acked + Math.floor(n));
        sub.lastAck = this.now();
        if (sub.stalled && this.ring.end - sub.acked < FLOW_LOW_WATERMARK_CHARS)
          sub.stalled = false;
        this.flushOne(sub);
        this.updateFlow();
      },
      dispose: () => {
        this.subs.delete(sub);
        this.updateFlow();
      },
    };
  }

  /** New output is in the ring buffer. */
  notifyAppend(length: number): void {
    if (this.subs.size === 0) return;
    this.unflushed += length;
    this.timer ??= setTimeout(() => this.flush(), STREAM_BATCH_MS);
    if (this.unflushed >= STREAM_BATCH_MAX_CHARS) this.sendFullFrames();
    this.updateFlow();
  }

  /** Full frames now; what is left over waits for the batch timer (or for more output). */
  private sendFullFrames(): void {
    let left = 0;
    for (const sub of this.subs) {
      this.flushOne(sub);
      left = Math.max(left, this.ring.end - sub.sent);
    }
    this.unflushed = left;
  }

  /**
   * The final state (exit). Each subscriber gets it after the last of the output, which under
   * flow control may be several acks later, so the frame order is always the real order.
   */
  notifyFinal(frame: ShellStreamFrame): void {
    this.finalState = frame;
    this.flush();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unflushed = 0;
    for (const sub of this.subs) this.flushOne(sub);
  }

  private flushOne(sub: Subscriber): void {
    if (sub.flushing) return;
    sub.flushing = true;
    try {
      this.sendAvailable(sub);
    } finally {
      sub.flushing = false;
    }
  }

  private sendAvailable(sub: Subscriber): void {
    // While the batch timer is pending, the tail shorter than a frame is the timer's to send.
    const whole = this.timer !== null;
    while (sub.sent < this.ring.end && sub.sent - sub.acked < FLOW_SEND_WINDOW_CHARS) {
      if (whole && this.ring.end - sub.sent < STREAM_BATCH_MAX_CHARS) break;
      const slice = this.ring.read(sub.sent, STREAM_BATCH_MAX_CHARS);
      let text = slice.text;
      // A frame never ends inside a surrogate pair: the binary form carries UTF-8, where half a
      // pair has no encoding (it would arrive as U+FFFD twice). The pair goes out whole next.
      if (
        slice.to < this.ring.end &&
        text.length > 1 &&
        isHighSurrogate(text.charCodeAt(text.length - 1))
      )
        text = text.slice(0, -1);
      if (slice.missed > 0) sub.acked += slice.missed;
      sub.sent = slice.from + text.length;
      sub.sink({
        type: 'shell_output',
        shell_id: this.shellId,
        cursor: slice.from,
        data: text,
        ...(slice.missed > 0 ? { missed_characters: slice.missed } : {}),
      });
    }
    if (this.finalState && !sub.finalSent && sub.sent >= this.ring.end) {
      sub.finalSent = true;
      sub.sink(this.finalState);
    }
  }

  private updateFlow(): void {
    const end = this.ring.end;
    const holding = [...this.subs].filter((s) => !s.stalled);
    if (!this.paused && holding.some((s) => end - s.acked > FLOW_HIGH_WATERMARK_CHARS)) {
      this.paused = true;
      this.producer.pause();
      this.stallTimer ??= setInterval(() => this.checkStalls(), FLOW_STALL_MS / 5);
      // Nothing more comes until acks do, so waiting out the batch timer would only idle.
      if (this.timer) this.flush();
    } else if (this.paused && holding.every((s) => end - s.acked < FLOW_LOW_WATERMARK_CHARS)) {
      this.paused = false;
      this.producer.resume();
      if (this.stallTimer) clearInterval(this.stallTimer);
      this.stallTimer = null;
    }
  }

  private checkStalls(): void {
    const now = this.now();
    for (const sub of this.subs) {
      if (
        !sub.stalled &&
        this.ring.end - sub.acked > FLOW_LOW_WATERMARK_CHARS &&
        now - sub.lastAck >= FLOW_STALL_MS
      ) {
        sub.stalled = true;
      }
    }
    this.updateFlow();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.timer = this.stallTimer = null;
    this.subs.clear();
    if (this.paused) {
      this.paused = false;
      this.producer.resume();
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

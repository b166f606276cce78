import type { Disposable } from '../lifecycle/disposable';
import type { ResultAckCode, ResultFrame } from '../../../shared/device/frames';
import type { Clock } from './clock';
import { SETTLED_CALL_MEMORY_MAX, SETTLED_CALL_MEMORY_MS } from './constants';
import { matchesHash, randomId, randomToken, sha256Hex } from './tokens';

// Calls in flight to devices. Each has a single-use call_token (only its sha256 is kept) and a
// deadline. The first valid result wins (200); afterwards the call is a tombstone so a late or
// duplicate result is answered precisely (409 delivered, 404 expired) instead of guessed.

export type CallOutcome =
  | { status: 'ok'; result: unknown }
  | { status: 'error'; error: { code: string; message: string } }
  | {
      status: 'failed';
      code: 'device_timeout' | 'device_unavailable' | 'aborted';
      message: string;
    };

export interface OpenedCall {
  callId: string;
  callToken: string;
  expiresAt: number;
  outcome: Promise<CallOutcome>;
}

interface Pending {
  deviceId: string;
  tokenHash: string;
  timer: NodeJS.Timeout;
  resolve(outcome: CallOutcome): void;
}

interface Settled {
  deviceId: string;
  tokenHash: string;
  at: number;
  delivered: boolean;
}

export class PendingCalls implements Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly settled = new Map<string, Settled>();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  isPending(callId: string): boolean {
    return this.pending.has(callId);
  }

  open(deviceId: string): OpenedCall {
    const callId = randomId('dc');
    const callToken = randomToken();
    const expiresAt = this.clock.now() + this.timeoutMs;
    let resolve!: (outcome: CallOutcome) => void;
    const outcome = new Promise<CallOutcome>((r) => (resolve = r));
    const timer = setTimeout(() => {
      const seconds = Math.round(this.timeoutMs / 1000);
      this.settle(callId, false, {
        status: 'failed',
        code: 'device_timeout',
        message: `the device did not answer within ${seconds} s`,
      });
    }, this.timeoutMs);
    this.pending.set(callId, { deviceId, tokenHash: sha256Hex(callToken), timer, resolve });
    return { callId, callToken, expiresAt, outcome };
  }

  /** A result from `deviceId`: resolves its call at most once and says what to acknowledge. */
  deliver(deviceId: string, frame: ResultFrame): ResultAckCode {
    const call = this.pending.get(frame.call_id);
    if (!call) {
      const done = this.settled.get(frame.call_id);
      if (!done || !done.delivered) return 404;
      return done.deviceId === deviceId && matchesHash(frame.call_token, done.tokenHash)
        ? 409
        : 403;
    }
    if (call.deviceId !== deviceId || !matchesHash(frame.call_token, call.tokenHash)) return 403;
    const outcome: CallOutcome =
      frame.status === 'ok'
        ? { status: 'ok', result: frame.result ?? null }
        : { status: 'error', error: frame.error };
    this.settle(frame.call_id, true, outcome);
    return 200;
  }

  /** Ends one call early: the run was stopped, or its device left before the call went out. */
  fail(callId: string, code: 'device_unavailable' | 'aborted', message: string): void {
    this.settle(callId, false, { status: 'failed', code, message });
  }

  /** Ends every call sent to a device that can no longer answer (revoked). */
  failDevice(deviceId: string, message: string): void {
    for (const [callId, call] of [...this.pending]) {
      if (call.deviceId === deviceId) {
        this.settle(callId, false, { status: 'failed', code: 'device_unavailable', message });
      }
    }
  }

  dispose(): void {
    for (const callId of [...this.pending.keys()]) {
      this.settle(callId, false, {
        status: 'failed',
        code: 'device_unavailable',
        message: 'the device listener stopped',
      });
    }
    this.settled.clear();
  }

  private settle(callId: string, delivered: boolean, outcome: CallOutcome): void {
    const call = this.pending.get(callId);
    if (!call) return;
    this.pending.delete(callId);
    clearTimeout(call.timer);
    this.remember(callId, {
      deviceId: call.deviceId,
      tokenHash: call.tokenHash,
      at: this.clock.now(),
      delivered,
    });
    call.resolve(outcome);
  }

  private remember(callId: string, entry: Settled): void {
    this.settled.set(callId, entry);
    // Insertion order is settle order: the oldest tombstones are first.
    for (const [id, old] of this.settled) {
      const stale = entry.at - old.at > SETTLED_CALL_MEMORY_MS;
      if (!stale && this.settled.size <= SETTLED_CALL_MEMORY_MAX) break;
      this.settled.delete(id);
    }
  }
}

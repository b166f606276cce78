import { randomBytes, timingSafeEqual } from 'node:crypto';
import { LOGIN_CODE_TTL_MS, MAX_PENDING_LOGIN_CODES, SECRET_BYTES } from './constants';

// One-time login codes: a code is exchanged once for the login cookie, then it is gone; unused,
// it expires within a minute. Codes live only in the host's memory, so a restart voids them all.

export interface Clock {
  now(): number;
}

export class LoginCodes {
  /** code -> expiry (ms); insertion order is age order. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly clock: Clock = Date,
    private readonly ttlMs = LOGIN_CODE_TTL_MS,
  ) {}

  issue(): { code: string; expiresAt: number } {
    this.sweep();
    while (this.pending.size >= MAX_PENDING_LOGIN_CODES) {
      this.pending.delete(this.pending.keys().next().value!);
    }
    const code = randomBytes(SECRET_BYTES).toString('base64url');
    const expiresAt = this.clock.now() + this.ttlMs;
    this.pending.set(code, expiresAt);
    return { code, expiresAt };
  }

  /** True once for a pending, unexpired code; the code is gone afterwards either way. */
  redeem(given: string): boolean {
    this.sweep();
    const want = Buffer.from(given);
    for (const code of this.pending.keys()) {
      const have = Buffer.from(code);
      if (have.length === want.length && timingSafeEqual(have, want)) {
        this.pending.delete(code);
        return true;
      }
    }
    return false;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [code, expiresAt] of this.pending) if (expiresAt <= now) this.pending.delete(code);
  }
}

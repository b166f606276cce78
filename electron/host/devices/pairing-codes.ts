import { timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock';
import { PAIR_CODE_MAX_FAILURES, PAIR_CODE_TTL_MS } from './constants';
import { randomCode } from './tokens';

/** What the phone that pairs with a code is granted (chosen in the dialog before it is shown). */
export interface CodeGrant {
  remote: boolean;
}

export type CodeCheck =
  | { ok: true; grant: CodeGrant }
  | { ok: false; code: 'bad_code' | 'expired_code'; message: string };

interface ActiveCode {
  code: string;
  expiresAt: number;
  failures: number;
  grant: CodeGrant;
}

/**
 * The one-time pairing code. At most one is active: a new offer replaces the previous code. An
 * expired code is kept (until replaced) so a late phone hears "expired", not "wrong". Wrong guesses
 * from all connections count against the code; past the budget it is burned.
 */
export class PairingCodes {
  private active: ActiveCode | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = PAIR_CODE_TTL_MS,
  ) {}

  issue(grant: CodeGrant = { remote: false }): { code: string; expires_at: number } {
    const code = randomCode();
    const expiresAt = this.clock.now() + this.ttlMs;
    this.active = { code, expiresAt, failures: 0, grant: { remote: grant.remote } };
    return { code, expires_at: expiresAt };
  }

  /** Checks a presented code; a valid one is used up. */
  consume(presented: string): CodeCheck {
    const active = this.active;
    if (!active) {
      return {
        ok: false,
        code: 'bad_code',
        message: 'no pairing code is active: show a new one in the app',
      };
    }
    if (!sameCode(presented, active.code)) {
      active.failures += 1;
      if (active.failures >= PAIR_CODE_MAX_FAILURES) this.active = undefined;
      return { ok: false, code: 'bad_code', message: 'the pairing code is wrong' };
    }
    if (this.clock.now() >= active.expiresAt) {
      return {
        ok: false,
        code: 'expired_code',
        message: 'the pairing code expired: show a new one in the app',
      };
    }
    this.active = undefined;
    return { ok: true, grant: active.grant };
  }

  /** Pairing turned off: no code stays usable. */
  clear(): void {
    this.active = undefined;
  }
}

// Strings become UTF-8 bytes (Buffer.from's and update's default encoding).
function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

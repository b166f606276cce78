import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LOGIN_PROOF_WINDOW_MS } from './constants';
import type { Clock } from './login-codes';

// How `mewbo login` asks the running host for a new login code: it proves it can read the web
// secret (owner-only, under $MEWBO_HOME/configs, denied to sandboxed shells) without sending it.
// The proof is an HMAC of a timestamp and a fresh nonce, so a process that is not the host but
// sits on the host's port learns nothing it can reuse, and a captured proof cannot be replayed.

const PROOF_LABEL = 'mewbo-login-code-v1';
export const PROOF_HEADER = 'x-mewbo-login-proof';

function mac(secret: Buffer, ts: number, nonce: string): string {
  return createHmac('sha256', secret).update(`${PROOF_LABEL}\n${ts}\n${nonce}`).digest('hex');
}

/** `<ts>.<nonce>.<hmac>`, the value of the x-mewbo-login-proof header. */
export function makeLoginProof(secret: Buffer, now = Date.now()): string {
  const nonce = randomBytes(16).toString('hex');
  return `${now}.${nonce}.${mac(secret, now, nonce)}`;
}

/** Checks proofs; each nonce is accepted once within the window. */
export class LoginProofVerifier {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock = Date,
  ) {}

  verify(header: string | undefined): boolean {
    const m = /^(\d{1,16})\.([0-9a-f]{32})\.([0-9a-f]{64})$/.exec(header ?? '');
    if (!m) return false;
    const ts = Number(m[1]);
    const nonce = m[2]!;
    const now = this.clock.now();
    for (const [n, at] of this.seen) if (at + LOGIN_PROOF_WINDOW_MS < now) this.seen.delete(n);
    if (Math.abs(now - ts) > LOGIN_PROOF_WINDOW_MS || this.seen.has(nonce)) return false;
    const want = Buffer.from(mac(this.secret, ts, nonce), 'hex');
    const given = Buffer.from(m[3]!, 'hex');
    if (!timingSafeEqual(want, given)) return false;
    this.seen.set(nonce, now);
    return true;
  }
}

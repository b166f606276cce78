import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LOGIN_PROOF_WINDOW_MS } from './constants';
import type { Clock } from './login-codes';

// How `mewbo login` asks the running host for a new login code: it proves it can read the web
// secret (owner-only, under $MEWBO_HOME/configs, denied to sandboxed shells) without sending it.
// Both directions are proved, each under its own label so one can never stand for the other:
// - the host first answers a fresh challenge with an HMAC naming the Host (name and port) it was
//   asked on, so `mewbo login` sends nothing to a process that took a port the host left (the
//   remembered one, or the port the user named);
// - the client's proof is an HMAC of a timestamp, a fresh nonce and the Host it is for, so a proof
//   that reached the wrong listener anyway is refused by a host on any other port, and a captured
//   one cannot be replayed: its nonce is remembered until its timestamp leaves the window.

const PROOF_LABEL = 'mewbo-login-code-v2';
const HOST_LABEL = 'mewbo-login-host-v1';
export const PROOF_HEADER = 'x-mewbo-login-proof';
export const CHALLENGE_HEADER = 'x-mewbo-login-challenge';

const hex = (secret: Buffer, text: string) =>
  createHmac('sha256', secret).update(text).digest('hex');

function proofMac(secret: Buffer, host: string, ts: number, nonce: string): string {
  return hex(secret, `${PROOF_LABEL}\n${host}\n${ts}\n${nonce}`);
}

function hostMac(secret: Buffer, host: string, challenge: string): string {
  return hex(secret, `${HOST_LABEL}\n${host}\n${challenge}`);
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  // Stryker disable next-line ConditionalExpression,LogicalOperator: callers check both are 64 hex digits first; the lengths keep timingSafeEqual from throwing should one ever not
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/** A fresh challenge for the host: 16 random bytes as hex. */
export function newChallenge(): string {
  return randomBytes(16).toString('hex');
}

/** The host's answer to `challenge` on `host` (its Host header, `name:port`). */
export function answerChallenge(secret: Buffer, host: string, challenge: string): string | null {
  return /^[0-9a-f]{32}$/.test(challenge) ? hostMac(secret, host, challenge) : null;
}

/** Whether `answer` came from a holder of the secret asked `challenge` on `host`. */
export function verifyHostAnswer(
  secret: Buffer,
  host: string,
  challenge: string,
  answer: string,
): boolean {
  // Stryker disable next-line Regex: without `^` a prefix still fails, its hex decoding stopping short or running long
  return /^[0-9a-f]{64}$/.test(answer) && sameHex(hostMac(secret, host, challenge), answer);
}

/** `<ts>.<nonce>.<hmac>` for the host at `host` (`name:port`): the x-mewbo-login-proof header. */
export function makeLoginProof(secret: Buffer, host: string, now = Date.now()): string {
  const nonce = randomBytes(16).toString('hex');
  return `${now}.${nonce}.${proofMac(secret, host, now, nonce)}`;
}

/** Checks proofs; each nonce is accepted once, and remembered until its timestamp expires. */
export class LoginProofVerifier {
  /** nonce -> the time its proof stops being accepted anyway (its ts + the window). */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock = Date,
  ) {}

  /** `host`: the Host the request came in on, already checked to name this server. */
  verify(header: string | undefined, host: string): boolean {
    // Stryker disable next-line StringLiteral: any default string fails the pattern
    const m = /^(\d{1,16})\.([0-9a-f]{32})\.([0-9a-f]{64})$/.exec(header ?? '');
    if (!m) return false;
    const ts = Number(m[1]);
    const nonce = m[2]!;
    const now = this.clock.now();
    // Stryker disable next-line ConditionalExpression: the sweep bounds memory only; a stale nonce's proof is out of its window anyway
    for (const [n, expires] of this.seen) if (expires < now) this.seen.delete(n);
    if (Math.abs(now - ts) > LOGIN_PROOF_WINDOW_MS || this.seen.has(nonce)) return false;
    if (!sameHex(proofMac(this.secret, host, ts, nonce), m[3]!)) return false;
    this.seen.set(nonce, ts + LOGIN_PROOF_WINDOW_MS);
    return true;
  }
}

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LoginProofVerifier, makeLoginProof } from '../../../electron/web/login-proof';
import { LOGIN_PROOF_WINDOW_MS } from '../../../electron/web/constants';

const secret = randomBytes(32);
const HOST = '127.0.0.1:4100';

describe('login proofs', () => {
  it('accept a proof once, for the Host it names, within the window of its timestamp', () => {
    const clock = { now: () => 1_000_000 };
    const v = new LoginProofVerifier(secret, clock);
    const proof = makeLoginProof(secret, HOST, clock.now());
    expect(v.verify(proof, '127.0.0.1:4101')).toBe(false);
    expect(v.verify(proof, 'localhost:4100')).toBe(false);
    expect(v.verify(proof, HOST)).toBe(true);
    expect(v.verify(proof, HOST)).toBe(false);
    expect(
      v.verify(makeLoginProof(secret, HOST, clock.now() - LOGIN_PROOF_WINDOW_MS - 1), HOST),
    ).toBe(false);
    expect(v.verify(makeLoginProof(randomBytes(32), HOST, clock.now()), HOST)).toBe(false);
  });

  it('remember a nonce until its timestamp expires, not for a window from when it arrived', () => {
    let now = 1_000_000;
    const v = new LoginProofVerifier(secret, { now: () => now });
    // Dated ahead (a client clock that runs fast): valid until its ts + the window.
    const ahead = makeLoginProof(secret, HOST, now + LOGIN_PROOF_WINDOW_MS);
    expect(v.verify(ahead, HOST)).toBe(true);
    now += LOGIN_PROOF_WINDOW_MS + 1;
    expect(v.verify(makeLoginProof(secret, HOST, now), HOST)).toBe(true); // sweeps the old ones
    expect(v.verify(ahead, HOST)).toBe(false);
  });
});

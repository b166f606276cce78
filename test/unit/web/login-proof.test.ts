import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_HEADER,
  LoginProofVerifier,
  PROOF_HEADER,
  answerChallenge,
  makeLoginProof,
  newChallenge,
  verifyHostAnswer,
} from '../../../electron/web/login-proof';
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

describe('the host challenge (mewbo login checks the host before it sends a proof)', () => {
  it('a challenge is 16 fresh random bytes as hex', () => {
    const a = newChallenge();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newChallenge()).not.toBe(a);
  });

  it('the host answers a well-formed challenge with the HMAC of its label, the Host and the challenge', () => {
    const challenge = newChallenge();
    const answer = answerChallenge(secret, HOST, challenge);
    // The wire format both sides (and older clients) compute.
    expect(answer).toBe(
      createHmac('sha256', secret)
        .update(`mewbo-login-host-v1\n${HOST}\n${challenge}`)
        .digest('hex'),
    );
  });

  it('the host answers nothing to a challenge that is not 32 lower-case hex digits', () => {
    const good = newChallenge();
    for (const bad of [
      good.slice(1),
      `${good}0`,
      good.toUpperCase().replace(/[0-9]/g, 'A'),
      `x${good.slice(1)}`,
      `${good.slice(1)}\n`,
      '',
    ])
      expect(answerChallenge(secret, HOST, bad)).toBeNull();
  });

  it('an answer is accepted only from the secret, for the Host and the challenge asked', () => {
    const challenge = newChallenge();
    const answer = answerChallenge(secret, HOST, challenge)!;
    expect(verifyHostAnswer(secret, HOST, challenge, answer)).toBe(true);
    expect(verifyHostAnswer(secret, '127.0.0.1:4101', challenge, answer)).toBe(false);
    expect(verifyHostAnswer(secret, HOST, newChallenge(), answer)).toBe(false);
    expect(
      verifyHostAnswer(secret, HOST, challenge, answerChallenge(randomBytes(32), HOST, challenge)!),
    ).toBe(false);
  });

  it('an answer that is not exactly 64 lower-case hex digits is refused, even one naming the right bytes', () => {
    const challenge = newChallenge();
    const answer = answerChallenge(secret, HOST, challenge)!;
    for (const bad of [
      answer.toUpperCase(),
      `${answer}00`,
      `${answer}z`,
      answer.slice(2),
      ` ${answer}`,
      '',
    ])
      expect(verifyHostAnswer(secret, HOST, challenge, bad)).toBe(false);
  });

  it("a login proof's MAC cannot stand for the host's answer, nor the host's answer for a proof", () => {
    const proof = makeLoginProof(secret, HOST, 1_000_000);
    const [ts, nonce, mac] = proof.split('.') as [string, string, string];
    expect(verifyHostAnswer(secret, HOST, nonce, mac)).toBe(false);
    const v = new LoginProofVerifier(secret, { now: () => Number(ts) });
    expect(v.verify(`${ts}.${nonce}.${answerChallenge(secret, HOST, nonce)}`, HOST)).toBe(false);
    expect(v.verify(proof, HOST)).toBe(true);
  });
});

describe('login proofs at the edges', () => {
  it('a proof is `ts.nonce.HMAC(label, Host, ts, nonce)` in the header older clients send', () => {
    const proof = makeLoginProof(secret, HOST, 1_000_000);
    const [ts, nonce, mac] = proof.split('.') as [string, string, string];
    expect(ts).toBe('1000000');
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(mac).toBe(
      createHmac('sha256', secret)
        .update(`mewbo-login-code-v2\n${HOST}\n${ts}\n${nonce}`)
        .digest('hex'),
    );
    expect([PROOF_HEADER, CHALLENGE_HEADER]).toEqual([
      'x-mewbo-login-proof',
      'x-mewbo-login-challenge',
    ]);
  });

  it('accept a timestamp exactly a window away either side, refuse one a millisecond further', () => {
    const now = 5_000_000;
    const v = new LoginProofVerifier(secret, { now: () => now });
    expect(v.verify(makeLoginProof(secret, HOST, now - LOGIN_PROOF_WINDOW_MS), HOST)).toBe(true);
    expect(v.verify(makeLoginProof(secret, HOST, now + LOGIN_PROOF_WINDOW_MS), HOST)).toBe(true);
    expect(v.verify(makeLoginProof(secret, HOST, now + LOGIN_PROOF_WINDOW_MS + 1), HOST)).toBe(
      false,
    );
  });

  it('a replay at the last instant its timestamp is valid is still refused', () => {
    let now = 5_000_000;
    const v = new LoginProofVerifier(secret, { now: () => now });
    const proof = makeLoginProof(secret, HOST, now);
    expect(v.verify(proof, HOST)).toBe(true);
    now += LOGIN_PROOF_WINDOW_MS;
    expect(v.verify(proof, HOST)).toBe(false);
  });

  it('refuse a malformed proof: a timestamp of 17 digits, upper-case hex, missing parts', () => {
    const v = new LoginProofVerifier(secret, { now: () => 5_000_000 });
    const [ts, nonce, mac] = makeLoginProof(secret, HOST, 5_000_000).split('.') as [
      string,
      string,
      string,
    ];
    for (const bad of [
      `0${'0'.repeat(16)}${ts}.${nonce}.${mac}`,
      `${ts}.${nonce.toUpperCase()}.${mac}`,
      `${ts}.${nonce}.${mac.toUpperCase()}`,
      `${ts}.${nonce}`,
      `${ts}.${nonce}.${mac}.`,
      ` ${ts}.${nonce}.${mac}`,
      undefined,
    ])
      expect(v.verify(bad, HOST)).toBe(false);
    expect(v.verify(`${ts}.${nonce}.${mac}`, HOST)).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  matchesHash,
  randomCode,
  randomId,
  randomToken,
  sha256Hex,
} from '../../../electron/host/devices/tokens';

// The device protocol's secrets: what a stolen devices file or a guessing phone can and cannot do.

describe('device secrets', () => {
  it('a token is 256 random bits in base64url, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 50 }, randomToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
  });

  it('an id is the prefix, an underscore and 16 hex digits', () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomId('dev')));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^dev_[0-9a-f]{16}$/);
  });

  it('a pairing code is always six digits, zero-padded, and spread over the whole range', () => {
    const codes = Array.from({ length: 400 }, randomCode);
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    // 400 uniform draws from a million: all distinct first digits 0-9 show up with near certainty
    // (a draw narrowed to 0..99999 would give only '0').
    expect(new Set(codes.map((c) => c[0])).size).toBeGreaterThan(5);
    expect(new Set(codes).size).toBeGreaterThan(390);
  });

  it('the stored form is the sha256 hex of the UTF-8 secret', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex('é')).toBe(
      createHash('sha256').update(Buffer.from('é', 'utf8')).digest('hex'),
    );
  });

  it('only the secret itself matches its stored hash; the hash, a prefix or garbage do not', () => {
    const token = randomToken();
    const stored = sha256Hex(token);
    expect(matchesHash(token, stored)).toBe(true);
    // A copied devices file holds the hash: presenting it must not work.
    expect(matchesHash(stored, stored)).toBe(false);
    expect(matchesHash(token.slice(0, -1), stored)).toBe(false);
    expect(matchesHash(randomToken(), stored)).toBe(false);
    // A truncated or malformed stored value is a refusal, not a throw.
    expect(matchesHash(token, stored.slice(0, 32))).toBe(false);
    expect(matchesHash(token, '')).toBe(false);
    expect(matchesHash(token, 'zz')).toBe(false);
  });
});

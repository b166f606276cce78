import { describe, expect, it } from 'vitest';
import { LoginCodes } from '../../../electron/web/login-codes';
import { LOGIN_CODE_TTL_MS, MAX_PENDING_LOGIN_CODES } from '../../../electron/web/constants';

// One-time login codes: each buys one login, within its minute, and the oldest are dropped past
// the bound on pending codes.

describe('login codes', () => {
  it('redeem once, and only the code issued', () => {
    const now = 5_000;
    const codes = new LoginCodes({ now: () => now });
    const { code, expiresAt } = codes.issue();
    expect(expiresAt).toBe(now + LOGIN_CODE_TTL_MS);
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(codes.redeem(`${code}x`)).toBe(false);
    expect(codes.redeem(code.slice(1))).toBe(false);
    expect(codes.redeem('')).toBe(false);
    expect(codes.redeem(code)).toBe(true);
    expect(codes.redeem(code)).toBe(false);
    expect(codes.issue().code).not.toBe(code);
  });

  it('expire at their time: valid a millisecond before, not at it', () => {
    let now = 5_000;
    const codes = new LoginCodes({ now: () => now }, 1_000);
    const a = codes.issue();
    const b = codes.issue();
    now = a.expiresAt - 1;
    expect(codes.redeem(a.code)).toBe(true);
    now = b.expiresAt;
    expect(codes.redeem(b.code)).toBe(false);
  });

  it('keep at most the bound pending, dropping the oldest', () => {
    const codes = new LoginCodes({ now: () => 0 });
    const issued = Array.from({ length: MAX_PENDING_LOGIN_CODES + 1 }, () => codes.issue().code);
    expect(codes.redeem(issued[0]!)).toBe(false);
    expect(codes.redeem(issued[1]!)).toBe(true);
    expect(codes.redeem(issued.at(-1)!)).toBe(true);
  });
});

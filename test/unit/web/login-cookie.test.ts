import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cookieName,
  cookieValue,
  readCookie,
  sameSecret,
  setCookieHeader,
} from '../../../electron/web/login-cookie';
import { LOGIN_COOKIE_MAX_AGE_S } from '../../../electron/web/constants';

// The login cookie: named by port, derived from the secret, HttpOnly and SameSite=Strict, and
// compared whole.

describe('the login cookie', () => {
  it('is named by the port, derived from the secret, and set HttpOnly, SameSite=Strict for the whole site', () => {
    const secret = randomBytes(32);
    expect(cookieName(4100)).toBe('mewbo_login_4100');
    expect(cookieValue(secret)).toBe(cookieValue(Buffer.from(secret)));
    expect(cookieValue(secret)).not.toBe(cookieValue(randomBytes(32)));
    expect(cookieValue(secret)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookieHeader(4100, 'v')).toBe(
      `mewbo_login_4100=v; HttpOnly; SameSite=Strict; Path=/; Max-Age=${LOGIN_COOKIE_MAX_AGE_S}`,
    );
  });

  it("is the secret's HMAC-SHA256 of a fixed label, so a browser's login outlives a host restart and an upgrade", () => {
    const secret = Buffer.alloc(32, 7);
    expect(cookieValue(secret)).toBe(
      createHmac('sha256', secret).update('mewbo-web-cookie-v1').digest('base64url'),
    );
  });

  it('is read by its exact name from a Cookie header', () => {
    const header = 'a=1; mewbo_login_41=x; mewbo_login_4100 = v=w ;b';
    expect(readCookie(header, 'mewbo_login_4100')).toBe('v=w');
    expect(readCookie(header, 'mewbo_login_41')).toBe('x');
    expect(readCookie(header, 'mewbo_login_410')).toBeUndefined();
    expect(readCookie(header, 'b')).toBeUndefined();
    expect(readCookie(undefined, 'a')).toBeUndefined();
  });

  it('a part without "=" is no cookie, even one that is the name and one more character', () => {
    expect(readCookie('mewbo_login_4100x', 'mewbo_login_4100')).toBeUndefined();
    expect(readCookie('mewbo_login_4100=; mewbo_login_4100x', 'mewbo_login_4100')).toBe('');
    expect(readCookie(' mewbo_login_4100 ;x=1', 'mewbo_login_4100')).toBeUndefined();
  });

  it('matches only the whole value', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abd', 'abc')).toBe(false);
    expect(sameSecret('ab', 'abc')).toBe(false);
    expect(sameSecret(undefined, 'abc')).toBe(false);
  });
});

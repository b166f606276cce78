import { createHmac, timingSafeEqual } from 'node:crypto';
import { LOGIN_COOKIE_MAX_AGE_S } from './constants';

// The login cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page makes
// the browser send it), Path=/. Cookies are not kept apart by port, so its name carries the
// port: two hosts on one machine (two $MEWBO_HOME) keep separate logins. Its value derives from
// the persisted secret, so it survives a host restart.

const COOKIE_LABEL = 'mewbo-web-cookie-v1';

export function cookieName(port: number): string {
  return `mewbo_login_${port}`;
}

export function cookieValue(secret: Buffer): string {
  return createHmac('sha256', secret).update(COOKIE_LABEL).digest('base64url');
}

export function setCookieHeader(port: number, value: string): string {
  return `${cookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${LOGIN_COOKIE_MAX_AGE_S}`;
}

/** The named cookie's value from a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  // Stryker disable next-line StringLiteral: any default without `=` holds no cookie, as '' holds none
  const cookies = header ?? '';
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sameSecret(given: string | undefined, want: string): boolean {
  // Stryker disable next-line StringLiteral: callers compare with a cookie value or token, never with '' or another fixed text
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

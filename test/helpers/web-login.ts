import { join } from 'node:path';
import WebSocket from 'ws';
import { makeLoginProof, PROOF_HEADER } from '../../electron/web/login-proof';
import { readWebSecret } from '../../electron/web/web-secret';

// The web host's login as every client does it (electron/web/PROTOCOL.md): a one-time code from
// the host, exchanged by GET for the login cookie, which then goes on the WebSocket upgrade.

/** Asks the host for a new one-time login URL the way `mewbo login` does (a signed request). */
export async function newLoginUrl(origin: string, home: string): Promise<string> {
  const secret = readWebSecret(join(home, 'configs', 'web-host.key'));
  if (!secret) throw new Error(`no web secret under ${home}`);
  const res = await fetch(`${origin}/login/code`, {
    method: 'POST',
    headers: { [PROOF_HEADER]: makeLoginProof(secret, new URL(origin).host) },
  });
  if (!res.ok) throw new Error(`login code refused: HTTP ${res.status}`);
  return ((await res.json()) as { url: string }).url;
}

/** GETs a login URL and returns the cookie it sets, as `name=value` for a Cookie header. */
export async function exchangeCode(loginUrl: string): Promise<string> {
  const res = await fetch(loginUrl, { redirect: 'manual' });
  const set = res.headers.get('set-cookie');
  if (res.status !== 303 || !set) throw new Error(`login refused: HTTP ${res.status}`);
  return set.split(';')[0]!;
}

/** The `ws` package's WebSocket, sending `cookie` on every upgrade (what a browser does itself). */
export function socketWithCookie(cookie: string): typeof globalThis.WebSocket {
  class CookieSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  }
  return CookieSocket as unknown as typeof globalThis.WebSocket;
}

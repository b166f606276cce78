import type { IncomingMessage } from 'node:http';

// Who a request to a server on a loopback port really came from, as far as its headers say. A
// page on any site can make the browser send requests to 127.0.0.1 (a form post, fetch with
// no-cors, or a name it rebinds to 127.0.0.1 after the page loaded), so a local server that trusts
// "it came over loopback" can be driven by the web. Two headers tell those requests apart: the
// Host a browser sends is the name in the page's URL (a rebinding name, not 127.0.0.1), and the
// Origin it sends is the page's own. Shared by the web host and `mewbo mcp --http`.

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function names(bound: string): Set<string> {
  return new Set([...LOOPBACK_NAMES, bound]);
}

/** The Host header names this server: a loopback name (or the bound address) and this port. */
export function isOwnHost(req: IncomingMessage, port: number, bound = '127.0.0.1'): boolean {
  const host = req.headers.host ?? '';
  const colon = host.lastIndexOf(':');
  return colon > 0 && names(bound).has(host.slice(0, colon)) && host.slice(colon + 1) === `${port}`;
}

/**
 * Browsers always send Origin on the requests that matter (POST, WebSocket); it must be this server.
 * Non-browser clients send none, and are let through here (the caller asks for a credential).
 */
export function isOwnOrigin(req: IncomingMessage, port: number, bound = '127.0.0.1'): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const o = new URL(origin);
    return names(bound).has(o.hostname) && o.port === String(port);
  } catch {
    return false;
  }
}

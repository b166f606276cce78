import { normalizeHost, type Host } from './host-name';

// Where a proxy request asks to go, read from the request line alone: a CONNECT's authority
// (`host:port`, IPv6 in brackets) or an absolute-form URL (`http://host[:port]/path`). The Host
// header decides nothing: for CONNECT a Host naming another host is refused (a request built to
// make one part of a chain believe it goes elsewhere), and for an absolute URL it is replaced by
// the URL's own host before forwarding, as RFC 9112 section 3.2.2 says a proxy must.

export interface Target {
  host: Host;
  port: number;
}

export type TargetParse = { ok: true; target: Target } | { ok: false; message: string };

function portOf(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

/** `host:port` of a CONNECT request; the port is required (RFC 9110 section 9.3.6). */
export function parseConnectTarget(authority: string): TargetParse {
  const m = /^(\[[^\]]*\]|[^:[\]]+):([^:]*)$/.exec(authority);
  if (!m) return { ok: false, message: `CONNECT needs host:port, got "${authority}"` };
  const host = normalizeHost(m[1]!);
  const port = portOf(m[2]!);
  if (!host) return { ok: false, message: `"${m[1]}" is not a host name or an IP address` };
  if (port === null) return { ok: false, message: `"${m[2]}" is not a port (1-65535)` };
  return { ok: true, target: { host, port } };
}

/** An absolute-form request's URL: plain http only (https goes through CONNECT). */
export function parseAbsoluteTarget(
  url: string,
): { ok: true; target: Target; path: string } | { ok: false; message: string } {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
    return {
      ok: false,
      message:
        'this is an HTTP proxy: send absolute-form requests (http://host/path) or CONNECT host:port',
    };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: `"${url.slice(0, 200)}" is not a URL` };
  }
  if (parsed.protocol !== 'http:')
    return {
      ok: false,
      message: `${parsed.protocol}// requests go through CONNECT (HTTPS_PROXY), not as a plain request`,
    };
  if (parsed.username || parsed.password)
    return { ok: false, message: 'credentials in the URL are not forwarded; send a header' };
  const host = normalizeHost(parsed.hostname);
  if (!host)
    return { ok: false, message: `"${parsed.hostname}" is not a host name or an IP address` };
  const port = parsed.port ? portOf(parsed.port) : 80;
  if (port === null) return { ok: false, message: `"${parsed.port}" is not a port` };
  return { ok: true, target: { host, port }, path: `${parsed.pathname}${parsed.search}` };
}

/** A CONNECT's Host header, when present, must name the same host as the request line. */
export function hostHeaderMismatch(target: Target, header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d+))?$/.exec(header.trim());
  const host = m ? normalizeHost(m[1]!) : null;
  const same =
    // Stryker disable next-line ConditionalExpression: a null host's JSON never equals a host's, so dropping the test changes nothing; it keeps `host` typed
    host !== null &&
    JSON.stringify(host) === JSON.stringify(target.host) &&
    (m![2] === undefined || Number(m![2]) === target.port);
  return same
    ? null
    : `the Host header "${header.slice(0, 200)}" names another destination than the CONNECT line`;
}

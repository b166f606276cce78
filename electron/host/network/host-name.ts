import { lazyRequire } from '../system/lazy-require';

// One spelling per destination host, so a rule, an allowlist entry and a request compare equal
// when they name the same place: lower case, no trailing dot, internationalized names as
// punycode, IPv6 without brackets in its canonical form, and every IPv4 form the WHATWG URL
// parser (and the C resolver's inet_aton) accepts (`0x7f.1`, `2130706433`) as a dotted quad.

export type Host = { kind: 'name'; name: string } | { kind: 'ip'; address: string; family: 4 | 6 };

// Loaded at the first host judged: the config schema imports this module, so every command that
// reads configs/app.json loaded node:net (eight modules) with it, `mewbo tool read_file` among
// them, which judges no host (issue #26 part 4).
const net = lazyRequire<typeof import('node:net')>('node:net');
const isIP = (text: string) => net().isIP(text);

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/** A DNS name is at most 253 characters written out. */
const MAX_NAME_CHARS = 253;

/** The host's one spelling, or null when it is not a host name or an IP address. */
export function normalizeHost(raw: string): Host | null {
  const text = raw.trim();
  if (!text || /[/?#@\\\s%]/.test(text)) return null;
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const inner = bracketed ? text.slice(1, -1) : text;
  if (bracketed ? isIP(inner) !== 6 : inner.includes(':') && isIP(inner) !== 6) return null;
  // A bare IPv6 address (as in a rule) is bracketed for the URL parser, which canonicalizes it.
  const forUrl = !bracketed && isIP(inner) === 6 ? `[${inner}]` : text;
  let hostname: string;
  try {
    hostname = new URL(`http://${forUrl}/`).hostname;
  } catch {
    return null;
  }
  if (hostname.startsWith('[')) return { kind: 'ip', address: hostname.slice(1, -1), family: 6 };
  if (isIP(hostname) === 4) return { kind: 'ip', address: hostname, family: 4 };
  const name = hostname.replace(/\.$/, '');
  if (!name || name.length > MAX_NAME_CHARS) return null;
  if (!name.split('.').every((label) => LABEL.test(label))) return null;
  return { kind: 'name', name };
}

/** How the host is written in a URL or a CONNECT line (IPv6 in brackets). */
export function hostText(host: Host): string {
  if (host.kind === 'name') return host.name;
  return host.family === 6 ? `[${host.address}]` : host.address;
}

/** The host as a rule names it: `Network(...)` and the allowlists write IPv6 without brackets. */
export function hostKey(host: Host): string {
  return host.kind === 'name' ? host.name : host.address;
}

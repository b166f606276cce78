import { normalizeHost, type Host } from './host-name';

// A destination pattern, as written in `sandbox.network.allow`, a project's `network_allow` and
// `Network(...)` rules:
//   example.com      that name only (not www.example.com)
//   *.example.com    every name below example.com, at any depth, but not example.com itself
//                    (list both to allow both: the apex is often a different service)
//   *                every name (never an address: see below)
//   10.0.0.5, fd00::1, [fd00::1]
//                    that IP address, as a literal destination and as what a name resolved to
// Names compare in their one spelling (host-name.ts): case, a trailing dot, punycode and IPv4's
// odd forms cannot make a pattern miss the host it names. A name pattern never matches an IP
// literal: `*` allows every name, not a connection to any address.

export type DomainPattern =
  | { kind: 'any' }
  | { kind: 'exact'; name: string }
  | { kind: 'below'; base: string }
  | { kind: 'address'; address: string };

export type PatternParse = { ok: true; pattern: DomainPattern } | { ok: false; error: string };

export function parseDomainPattern(raw: string): PatternParse {
  const text = raw.trim();
  const bad = (why: string): PatternParse => ({ ok: false, error: `"${raw}": ${why}` });
  if (!text) return bad('empty destination');
  if (text === '*') return { ok: true, pattern: { kind: 'any' } };
  if (/^[a-z]+:\/\//i.test(text))
    return bad('write the host alone, without a scheme (example.com, not https://example.com)');
  const wild = text.startsWith('*.');
  const rest = wild ? text.slice(2) : text;
  if (rest.includes('*'))
    return bad('a wildcard is only allowed as the first label (*.example.com)');
  const host = normalizeHost(rest);
  if (!host)
    return bad(
      // Exactly one colon: `host:port` (an IPv6 address has two or more, and parsed above).
      rest.split(':').length === 2
        ? 'a destination names a host, not a port (drop ":port")'
        : 'not a host name or an IP address',
    );
  if (host.kind === 'ip') {
    if (wild) return bad('a wildcard cannot precede an IP address');
    return { ok: true, pattern: { kind: 'address', address: host.address } };
  }
  if (wild) {
    // `*.com` would allow a whole top-level domain: almost surely a mistake, and never safe.
    if (!host.name.includes('.')) return bad('a wildcard needs a domain of two labels or more');
    return { ok: true, pattern: { kind: 'below', base: host.name } };
  }
  return { ok: true, pattern: { kind: 'exact', name: host.name } };
}

/** Whether the pattern covers the host a connection names. */
export function patternMatches(pattern: DomainPattern, host: Host): boolean {
  switch (pattern.kind) {
    case 'any':
      return host.kind === 'name';
    case 'exact':
      // Stryker disable next-line ConditionalExpression: an IP host has no name, so it never equals the pattern's; the kind test is for the type
      return host.kind === 'name' && host.name === pattern.name;
    case 'below':
      return host.kind === 'name' && host.name.endsWith(`.${pattern.base}`);
    case 'address':
      // Stryker disable next-line ConditionalExpression: a name host has no address, so it never equals the pattern's; the kind test is for the type
      return host.kind === 'ip' && host.address === pattern.address;
  }
}

/** Whether the pattern names this exact address (what a name's resolution must also be allowed by). */
export function patternCoversAddress(pattern: DomainPattern, address: string): boolean {
  // Stryker disable next-line ConditionalExpression: a pattern of another kind has no address, so the kind test alone never decides (the address comparison is tested)
  return pattern.kind === 'address' && pattern.address === address;
}

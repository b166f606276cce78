import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { normalizeHost } from './host-name';

// What an IP address is, as far as the proxy's policy cares: this machine (loopback and the
// unspecified address, which connects to this machine too), a private network (RFC 1918, IPv6
// unique local, carrier-grade NAT), link-local (cloud metadata services live at 169.254.169.254),
// multicast or otherwise not a unicast destination (reserved, broadcast, documentation), or the
// public internet. IPv4-mapped and IPv4-compatible IPv6 addresses count as the IPv4 address they
// carry (node's BlockList checks them against the IPv4 ranges), so `::ffff:127.0.0.1` is loopback.
// The addresses of this machine's own interfaces count as loopback too: a LAN address reaches
// the app's pairing listener as surely as 127.0.0.1 does.

export type AddressKind = 'loopback' | 'private' | 'link-local' | 'not-unicast' | 'public';

type Range = [string, number, 'ipv4' | 'ipv6'];

const RANGES: Record<Exclude<AddressKind, 'public'>, Range[]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['0.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
    ['::', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
    // Site-local (deprecated, still routed inside some networks).
    ['fec0::', 10, 'ipv6'],
  ],
  'link-local': [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  'not-unicast': [
    ['224.0.0.0', 4, 'ipv4'],
    ['240.0.0.0', 4, 'ipv4'],
    ['192.0.0.0', 24, 'ipv4'],
    ['192.0.2.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['198.51.100.0', 24, 'ipv4'],
    ['203.0.113.0', 24, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
    ['2001:db8::', 32, 'ipv6'],
    // NAT64 and 6to4 carry an IPv4 address the gateway may translate to a private one.
    ['64:ff9b::', 96, 'ipv6'],
    ['64:ff9b:1::', 48, 'ipv6'],
    ['2002::', 16, 'ipv6'],
    ['100::', 64, 'ipv6'],
    // IPv4-compatible IPv6 (deprecated): `::127.0.0.1` is not a destination anyone needs.
    ['::', 96, 'ipv6'],
  ],
};

/** Addresses of this machine's interfaces now, in their one spelling. */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  // Stryker disable next-line ArrayDeclaration: networkInterfaces() holds no undefined list; `?? []` is for its type
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: a bare IPv6 address normalizes the same bracketed or not, and node puts no zone in `address` on Linux (scopeid holds it): only a platform that did would tell the two apart
      const n = normalizeHost(a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address);
      // Stryker disable next-line ConditionalExpression,OptionalChaining: an interface's address always normalizes to an IP; the test is for the type
      if (n?.kind === 'ip') out.add(n.address);
    }
  return out;
}

/** One BlockList per kind, built once per classifier (BlockList is not shared mutable state). */
export function addressClassifier(): (address: string) => AddressKind {
  const lists = (Object.keys(RANGES) as (keyof typeof RANGES)[]).map((kind) => {
    const list = new BlockList();
    for (const [net, prefix, type] of RANGES[kind]) list.addSubnet(net, prefix, type);
    return [kind, list] as const;
  });
  return (address) => {
    const family = isIP(address);
    if (family === 0) throw new Error(`not an IP address: ${address}`);
    // Interfaces come and go (a VPN, Wi-Fi): read at each decision, which is once per connection.
    if (ownAddresses().has(address)) return 'loopback';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    for (const [kind, list] of lists) if (list.check(address, type)) return kind;
    return 'public';
  };
}

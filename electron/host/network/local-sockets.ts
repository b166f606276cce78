import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { normalizeHost } from './host-name';

// Who holds which TCP socket on this machine, from /proc: the kernel's socket tables
// (/proc/net/tcp and tcp6: addresses, ports, state and inode) and each process's descriptors
// (/proc/<pid>/fd links read `socket:[inode]`). This is how the host tells a port a session's own
// process listens on (its dev server) from the app's own listeners and everything else, and which
// process opened a connection to a proxy. Linux only: elsewhere every table reads as empty, so
// nothing local is reachable.

export interface TcpEntry {
  local: { address: string; port: number };
  remote: { address: string; port: number };
  /** The kernel's state number: 0x0A is LISTEN, 0x01 ESTABLISHED. */
  state: number;
  inode: number;
}

export const TCP_LISTEN = 0x0a;

/** An address of /proc/net/tcp{,6}: 32-bit words in host order (little-endian here), as hex. */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  const v6 = normalizeHost(`[${groups.join(':')}]`);
  return v6?.kind === 'ip' ? v6.address : groups.join(':');
}

function decodeEndpoint(text: string): { address: string; port: number } {
  const [addr, port] = text.split(':');
  return { address: decodeAddress(addr ?? ''), port: parseInt(port ?? '0', 16) };
}

/** Parses the text of /proc/net/tcp or /proc/net/tcp6 (the header line is skipped). */
export function parseTcpTable(text: string): TcpEntry[] {
  const out: TcpEntry[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    out.push({
      local: decodeEndpoint(f[1]!),
      remote: decodeEndpoint(f[2]!),
      state: parseInt(f[3]!, 16),
      inode: Number(f[9]),
    });
  }
  return out;
}

/** Every TCP socket of this network namespace, IPv4 and IPv6. */
export function tcpTable(): TcpEntry[] {
  const out: TcpEntry[] = [];
  for (const file of ['tcp', 'tcp6']) {
    try {
      out.push(...parseTcpTable(readFileSync(`/proc/net/${file}`, 'utf8')));
    } catch {
      // no such table (no IPv6, not Linux): nothing listed
    }
  }
  return out;
}

/** The socket inodes a process holds open; empty when it is gone or not ours to read. */
export function socketInodesOf(pid: number | 'self'): Set<number> {
  const out = new Set<number>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(Number(m[1]));
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** Listening sockets held by any of `pids` (one process may be in many lists: a set). */
export function listenersOf(
  pids: Iterable<number | 'self'>,
  table: readonly TcpEntry[],
): TcpEntry[] {
  const inodes = new Set<number>();
  for (const pid of pids) for (const inode of socketInodesOf(pid)) inodes.add(inode);
  return table.filter((e) => e.state === TCP_LISTEN && inodes.has(e.inode));
}

// What a confined process may reach on the network, as the host grants it per spawn. Landlock's
// TCP rules name ports, not addresses; the launcher binds every socket of the process to the
// loopback device, so a port here means that port on this machine and nowhere else. No UDP, no
// raw sockets, no other address family than unix, IPv4 and IPv6 (the launcher's seccomp filter).

/** TCP ports a confined process may connect to on this machine; every other connect is refused. */
export interface NetworkGrant {
  /**
   * The session's egress proxy, ports the user lists, ports the session's own processes listen on.
   * An empty list leaves the process no network at all (unix sockets aside).
   */
  connectPorts: number[];
}

/** The ports sorted and without repeats, or an error naming the first one that is not a TCP port. */
export function normalizeGrant(grant: NetworkGrant): { ports: number[] } | { error: string } {
  for (const port of grant.connectPorts) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { error: `network grant: ${String(port)} is not a TCP port (an integer 1-65535)` };
  }
  return { ports: [...new Set(grant.connectPorts)].sort((a, b) => a - b) };
}

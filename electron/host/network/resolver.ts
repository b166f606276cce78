import { lookup } from 'node:dns/promises';

// How the proxy turns a name into addresses. Confined processes never resolve names themselves
// (they reach no DNS server): the proxy does it, once per connection, after the name is allowed,
// so an unallowed name is never even looked up (a lookup is itself a message to the name's
// servers: `SECRET.attacker.example` would carry the secret out). Tests give their own table.

export interface Resolver {
  /** Every address of the name, in the order the system prefers; rejects when there is none. */
  lookup(name: string): Promise<string[]>;
}

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS, as every other program on the machine). */
export const systemResolver: Resolver = {
  async lookup(name) {
    const found = await lookup(name, { all: true, verbatim: true });
    return found.map((a) => a.address);
  },
};

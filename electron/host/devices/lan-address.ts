import { networkInterfaces } from 'node:os';

/**
 * The address phones on the same network reach this machine at: the first non-internal IPv4
 * (phones' browsers handle IPv6 literals in URLs poorly). Undefined when the machine is offline.
 */
export function lanAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) return entry.address;
    }
  }
  return undefined;
}

import { join } from 'node:path';

// Where the remote part's daemon of one bundle version keeps its rendezvous, in an owner-only
// folder of the remote part's home (which the shells' sandbox denies): the socket links attach
// to, the token they must send first, its pid (for whoever must stop it), and its log.

export interface DaemonFiles {
  socket: string;
  token: string;
  pid: string;
  log: string;
}

/** The folder under the remote part's $MEWBO_HOME. */
export const DAEMON_DIR_NAME = 'run';

export function daemonFiles(dir: string, version: string): DaemonFiles {
  const base = join(dir, `part-${version}`);
  return { socket: `${base}.sock`, token: `${base}.token`, pid: `${base}.pid`, log: `${base}.log` };
}

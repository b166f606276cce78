// Where a remote project lives: what `ssh` needs to reach the host. A stand-in for the parsed
// ssh:// URL of electron/host/remote/ssh-url.ts (issue #29 part 1), swapped for it once landed.

export interface SshTarget {
  /** A host name, an address, or an alias of the user's SSH config. */
  host: string;
  user?: string;
  port?: number;
}

/** The destination argument of `ssh` (port and user as options, which config aliases keep). */
export function sshDestination(target: SshTarget): string {
  return target.user ? `${target.user}@${target.host}` : target.host;
}

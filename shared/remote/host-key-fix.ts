// What the user runs once a host's key stopped a connection (issue #29): for an unknown key, the
// command that adds exactly the key whose fingerprint they checked (`mewbo projects
// accept-host-key`, which refuses any other key the host offers by then); for a changed key, the
// command that removes the old one first (a changed key can be an attack, so nothing replaces it
// by itself). One text for the error of `mewbo run` and for the picker's dialog.

export interface HostKeyFacts {
  problem: 'unknown' | 'changed';
  /** Where ssh connects (after the config's aliases). */
  host: string;
  port: number;
  fingerprint: string | null;
  /** The host as the project names it, `ssh://[user@]host[:port]/`. */
  destination: string;
}

export function hostKeyFixCommand(k: HostKeyFacts): string {
  return k.problem === 'unknown'
    ? `mewbo projects accept-host-key ${k.destination} ${k.fingerprint ?? 'SHA256:...'}`
    : `ssh-keygen -R ${k.port === 22 ? k.host : `[${k.host}]:${k.port}`}`;
}

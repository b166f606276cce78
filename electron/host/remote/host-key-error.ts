import { hostKeyFixCommand, type HostKeyFacts } from '../../../shared/remote/host-key-fix';

// Host keys are checked strictly (StrictHostKeyChecking=yes): a host that is not in known_hosts,
// or whose key changed, is refused. The error carries the fingerprint the host offered, so the
// picker can show it for the user to compare and accept, and a headless run can print it with the
// command that accepts exactly that key (host-key-accept.ts).

export type HostKeyProblem = HostKeyFacts['problem'];

export class HostKeyError extends Error implements HostKeyFacts {
  override name = 'HostKeyError';
  readonly code = 'ssh_host_key';
  constructor(
    readonly host: string,
    readonly port: number,
    readonly problem: HostKeyProblem,
    /** `SHA256:...` of the key the host offered; null when it could not be read (host down). */
    readonly fingerprint: string | null,
    /** The host as the project names it (`ssh://[user@]host[:port]/`), for the accept command. */
    readonly destination: string,
  ) {
    const fix = hostKeyFixCommand({ problem, host, port, fingerprint, destination });
    super(
      problem === 'unknown'
        ? `the host key of ${host}:${port} is not known (${fingerprint ?? 'fingerprint unavailable'}): ` +
            `check it with the host's owner, then accept it with \`${fix}\``
        : `the host key of ${host}:${port} changed (now ${fingerprint ?? 'fingerprint unavailable'}): ` +
            `this can be an attack; if the host was reinstalled, remove its old key with \`${fix}\`, then accept the new one`,
    );
  }
}

/** ssh failed for another reason than the host key: the reason is ssh's own words. */
export class SshConnectError extends Error {
  override name = 'SshConnectError';
  readonly code = 'ssh_connect';
}

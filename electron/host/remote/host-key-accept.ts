import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  findOpenSsh,
  offeredKeys,
  resolveHost,
  runProgram,
  type OpenSsh,
  type ResolvedHost,
  type SshTransportOptions,
} from './ssh-transport';

// Accepting an unknown host key (issue #29 part 2), the step strict checking leaves to the user:
// they compared the fingerprint the refusal showed with the one the host's owner gave, and this
// adds exactly that key to the known_hosts file ssh itself reads, under the name ssh looks it up
// by (HostKeyAlias, or [host]:port), hashed when HashKnownHosts says so. The host is asked for its
// keys again here, so a key that is not the checked one (a man in the middle who appeared since
// the refusal) is refused, never added; a host already known with another key is refused too: a
// changed key is removed by hand first (ssh-keygen -R), as ssh itself asks.

export interface AcceptHostKeyOptions extends SshTransportOptions {
  /** `SHA256:...`, as the refusal showed it. */
  fingerprint: string;
}

export type AcceptResult =
  | { outcome: 'added'; knownHosts: string; name: string }
  | { outcome: 'already_known'; knownHosts: string; name: string };

export class HostKeyAcceptError extends Error {
  override name = 'HostKeyAcceptError';
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

export async function acceptHostKey(opts: AcceptHostKeyOptions): Promise<AcceptResult> {
  if (!FINGERPRINT.test(opts.fingerprint))
    throw new HostKeyAcceptError(
      `'${opts.fingerprint}' is not a host key fingerprint: give it as shown, SHA256: and 43 characters`,
    );
  const programs = findOpenSsh();
  if (!programs.keyscan || !programs.keygen)
    throw new HostKeyAcceptError(
      'ssh-keyscan and ssh-keygen are needed to read the host key (Debian: apt install openssh-client)',
    );
  const resolved = await resolveHost(programs, opts);
  const name = knownHostsName(resolved);
  const knownHosts = resolved.knownHostsFiles[0];
  if (!knownHosts)
    throw new HostKeyAcceptError('ssh names no known_hosts file (UserKnownHostsFile)');

  const known = await knownFingerprints(programs, resolved, name);
  if (known.includes(opts.fingerprint)) return { outcome: 'already_known', knownHosts, name };
  if (known.length)
    throw new HostKeyAcceptError(
      `${name} is already known with another key (${known.join(', ')}): if the host was reinstalled, remove the old key with \`ssh-keygen -R ${name}\` first`,
    );

  const offered = await offeredKeys(programs, resolved.host, resolved.port);
  if (!offered.length)
    throw new HostKeyAcceptError(
      `${resolved.host}:${resolved.port} did not answer with a host key: nothing was added`,
    );
  const key = offered.find((k) => k.fingerprint === opts.fingerprint);
  if (!key)
    throw new HostKeyAcceptError(
      `${resolved.host}:${resolved.port} now offers ${offered.map((k) => k.fingerprint).join(', ')}, not ${opts.fingerprint}: nothing was added (the key changed since it was shown, which can be an attack)`,
    );
  const [, type, blob] = key.line.split(' ');
  let line = `${name} ${type} ${blob}`;
  if (resolved.hashKnownHosts) line = await hashed(programs, line);
  mkdirSync(dirname(knownHosts), { recursive: true, mode: 0o700 });
  appendFileSync(knownHosts, `${line}\n`, { mode: 0o600 });
  return { outcome: 'added', knownHosts, name };
}

/** How known_hosts names the host: its HostKeyAlias, else the host, as [host]:port off port 22. */
function knownHostsName(r: ResolvedHost): string {
  const host = r.hostKeyAlias ?? r.host;
  return r.port === 22 || r.hostKeyAlias ? host : `[${host}]:${r.port}`;
}

/** The fingerprints every known_hosts file ssh reads holds for `name` (`ssh-keygen -F`). */
async function knownFingerprints(
  programs: OpenSsh,
  resolved: ResolvedHost,
  name: string,
): Promise<string[]> {
  const found: string[] = [];
  for (const file of resolved.knownHostsFiles) {
    const out = await runProgram(programs.keygen!, ['-l', '-F', name, '-f', file]);
    for (const m of out.stdout.toString().matchAll(/\b(SHA256:\S+)/g)) found.push(m[1]!);
  }
  return found;
}

/** The line with its host name hashed as ssh writes it under HashKnownHosts (`ssh-keygen -H`). */
async function hashed(programs: OpenSsh, line: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mewbo-known-'));
  try {
    const file = join(dir, 'known_hosts');
    writeFileSync(file, `${line}\n`, { mode: 0o600 });
    const out = await runProgram(programs.keygen!, ['-H', '-f', file]);
    if (out.code !== 0) throw new HostKeyAcceptError(`ssh-keygen -H failed: ${out.stderr.trim()}`);
    return readFileSync(file, 'utf8').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

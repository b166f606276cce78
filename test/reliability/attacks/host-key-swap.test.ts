import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMewbo } from '../../helpers/mewbo-cli';
import { startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';

// Attack (issue #29 part 2): the user was shown the fingerprint of a host's unknown key and checked
// it with the host's owner; by the time they accept it, a man in the middle answers in the host's
// place with a key of his own. "Just connect once and say yes" (StrictHostKeyChecking=accept-new,
// or answering ssh's prompt) adds whatever key answers then: the control shows the impostor's key
// landing in known_hosts that way. `mewbo projects accept-host-key` takes the checked fingerprint
// and adds only a key the host offers with exactly that fingerprint: the impostor's is refused and
// nothing is written. Two real sshds on 127.0.0.1: the genuine host and the impostor.

let genuine: Sshd;
let impostor: Sshd;
const home = tempDir('mewbo-attack-hostkey-');
beforeAll(async () => {
  genuine = await startSshd();
  impostor = await startSshd();
});
afterAll(async () => {
  await genuine?.stop();
  await impostor?.stop();
  home.cleanup();
});

/** A fresh known_hosts and an ssh config whose alias now reaches the impostor. */
function intercepted(name: string): { config: string; knownHosts: string } {
  const knownHosts = join(impostor.dir, `known_hosts_${name}`);
  writeFileSync(knownHosts, '');
  return { config: impostor.configWithKnownHosts(name, knownHosts), knownHosts };
}

const fingerprintsIn = (file: string) =>
  execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ')[1]);

describe('a host key swapped between showing and accepting', () => {
  it('unprotected: connecting once with accept-new adds the impostor key, not the checked one', () => {
    const { config, knownHosts } = intercepted('accept-new');
    execFileSync('ssh', [
      '-F',
      config,
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=accept-new',
      impostor.alias,
      'true',
    ]);
    expect(fingerprintsIn(knownHosts)).toEqual([impostor.fingerprint]);
    expect(impostor.fingerprint).not.toBe(genuine.fingerprint);
  });

  it('protected: accept-host-key with the checked fingerprint refuses the impostor and writes nothing', async () => {
    const { config, knownHosts } = intercepted('accept-host-key');
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ remote: { ssh_config: config } }),
    );
    const r = await runMewbo(
      ['projects', 'accept-host-key', `ssh://${impostor.alias}/srv`, genuine.fingerprint],
      { env: { MEWBO_HOME: home.dir } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `now offers ${impostor.fingerprint}, not ${genuine.fingerprint}: nothing was added`,
    );
    expect(readFileSync(knownHosts, 'utf8')).toBe('');
  });
});

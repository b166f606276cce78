import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostKeyError } from '../../../electron/host/remote/host-key-error';
import { SshTransport } from '../../../electron/host/remote/ssh-transport';
import { startSshd, type Sshd } from '../../helpers/sshd';

// The OpenSSH client as the transport, against a real sshd on 127.0.0.1.

let sshd: Sshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

const accepted = () => sshd.log().match(/Accepted publickey/g)?.length ?? 0;

describe('SshTransport', () => {
  it('runs commands on the host through one authenticated master connection', async () => {
    const before = accepted();
    const ssh = await SshTransport.connect({
      target: { host: sshd.alias, path: '/' },
      configFile: sshd.clientConfig,
    });
    try {
      const home = await ssh.exec('printf %s "$HOME"');
      expect(home.code).toBe(0);
      expect(home.stdout.toString()).toBe(sshd.remoteHome);
      const echoed = await ssh.exec('cat', Buffer.from('through stdin'));
      expect(echoed.stdout.toString()).toBe('through stdin');
      expect((await ssh.exec('exit 7')).code).toBe(7);
      // Three commands, one authentication: they rode the master.
      expect(accepted() - before).toBe(1);
      expect(await ssh.masterPid()).toBeGreaterThan(0);
    } finally {
      ssh.dispose();
    }
  });

  it('refuses a host whose key is not known, naming the fingerprint it offered', async () => {
    const empty = join(sshd.dir, 'known_hosts_empty');
    writeFileSync(empty, '');
    const err = await SshTransport.connect({
      target: { host: sshd.alias, path: '/' },
      configFile: sshd.configWithKnownHosts('unknown', empty),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyError);
    const keyErr = err as HostKeyError;
    expect(keyErr.problem).toBe('unknown');
    expect(keyErr.fingerprint).toBe(sshd.fingerprint);
    expect(keyErr.port).toBe(sshd.port);
    expect(keyErr.message).toContain(sshd.fingerprint);
  });

  it('refuses a host whose key changed', async () => {
    const wrong = join(sshd.dir, 'known_hosts_wrong');
    // Another key for the same host and port: what a man in the middle presents.
    writeFileSync(
      wrong,
      `[127.0.0.1]:${sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDl1EN+aN7cj5GdUYj4CCOzSZnC8U43dehbUHtPVv7O5\n`,
    );
    const err = await SshTransport.connect({
      target: { host: sshd.alias, path: '/' },
      configFile: sshd.configWithKnownHosts('changed', wrong),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyError);
    expect((err as HostKeyError).problem).toBe('changed');
    expect((err as HostKeyError).fingerprint).toBe(sshd.fingerprint);
  });
});

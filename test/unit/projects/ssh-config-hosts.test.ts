import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sshConfigHosts, userSshHosts } from '../../../electron/host/projects/ssh-config-hosts';
import { tempDir } from '../../helpers/temp';

// The aliases "Connect to host..." offers, read from ~/.ssh/config's Host lines.

describe('ssh config hosts', () => {
  it('lists each concrete Host name once, in order, leaving patterns and option-like names out', () => {
    const config = [
      '# my hosts',
      'Host gpu lab-box  # the lab',
      '  HostName 10.0.0.5',
      '  User ana',
      'host=build.example',
      'Host *.internal !bastion web?',
      'Host "quoted" gpu',
      'Host -oProxyCommand=sh',
      'Hostname not-a-host',
      'Match host x',
    ].join('\n');
    expect(sshConfigHosts(config)).toEqual(['gpu', 'lab-box', 'build.example', 'quoted']);
  });

  it('reads ~/.ssh/config of the home it is given, and none when there is no file', async () => {
    const t = tempDir('mewbo-ssh-config-');
    try {
      expect(await userSshHosts(t.dir)).toEqual([]);
      mkdirSync(join(t.dir, '.ssh'));
      writeFileSync(join(t.dir, '.ssh', 'config'), 'Host devbox\n');
      expect(await userSshHosts(t.dir)).toEqual(['devbox']);
    } finally {
      t.cleanup();
    }
  });
});

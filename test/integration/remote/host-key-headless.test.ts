import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines } from '../../helpers/mewbo-cli';
import { startRemoteRun, type RemoteRun } from '../../helpers/remote-run';

// An SSH host whose key this computer does not know yet, headless (issue #29 part 2): `mewbo run`
// refuses it before the model is called, naming the fingerprint and the command that accepts it;
// `mewbo projects accept-host-key` adds exactly that key to the known_hosts file ssh reads, and
// the run then works. Against a real sshd on 127.0.0.1 and the real OpenSSH client.

/** Six CLI runs, one of them installing the remote part, each allowed a minute on a loaded machine. */
const SIX_CLI_RUNS_MS = 300_000;

type Line = { type: string; name?: string; payload?: Record<string, unknown> };

let remote: RemoteRun;
let knownHosts: string;
beforeAll(async () => {
  remote = await startRemoteRun();
  // The desktop's ssh config names a known_hosts file without the server's key.
  knownHosts = join(remote.sshd.dir, 'known_hosts_headless');
  writeFileSync(knownHosts, '');
  writeFileSync(
    join(remote.home, 'configs', 'app.json'),
    JSON.stringify({
      remote: { ssh_config: remote.sshd.configWithKnownHosts('headless', knownHosts) },
    }),
  );
});
afterAll(() => remote?.stop());

describe('an unknown host key, headless', () => {
  it(
    'is refused by mewbo run before the model is called, naming the fingerprint and the accept command; accepted, the run works',
    async () => {
      const { sshd, fake } = remote;
      const project = join(sshd.remoteHome, 'headless');
      mkdirSync(project);
      const host = `ssh://${sshd.alias}/`;

      const refused = await remote.runOn(project, 'say where you are');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the host key of 127.0.0.1:${sshd.port} is not known`);
      expect(refused.stderr).toContain(
        `mewbo projects accept-host-key ${host} ${sshd.fingerprint}`,
      );
      expect(fake.requests).toHaveLength(0);
      // Nothing reached the host: no bundle was copied.
      expect(existsSync(join(sshd.remoteHome, '.mewbo-remote'))).toBe(false);

      // A fingerprint the host does not offer is refused, and nothing is written.
      const other = 'SHA256:' + 'A'.repeat(43);
      const wrong = await remote.mewbo(['projects', 'accept-host-key', host, other]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(
        `now offers ${sshd.fingerprint}, not ${other}: nothing was added`,
      );
      expect(readFileSync(knownHosts, 'utf8')).toBe('');
      const malformed = await remote.mewbo(['projects', 'accept-host-key', host, 'SHA256:short']);
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toContain("'SHA256:short' is not a host key fingerprint");

      // The shown one is added, under the name ssh looks it up by.
      const accepted = await remote.mewbo(['projects', 'accept-host-key', host, sshd.fingerprint]);
      expect(accepted.stderr).toContain(`added ${sshd.fingerprint} for [127.0.0.1]:${sshd.port}`);
      expect(accepted.code).toBe(0);
      const serverKey = readFileSync(sshd.knownHosts, 'utf8').trim();
      expect(readFileSync(knownHosts, 'utf8')).toBe(`${serverKey}\n`);
      const again = await remote.mewbo([
        'projects',
        'accept-host-key',
        sshd.alias,
        sshd.fingerprint,
      ]);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('is already known');
      expect(readFileSync(knownHosts, 'utf8')).toBe(`${serverKey}\n`);

      fake.script.push(
        { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'printf %s "$HOME"' } }] },
        { text: 'On the host.' },
      );
      const run = await remote.runOn(project, 'say where you are');
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
      const shell = jsonLines<Line>(run.stdout).find((l) => l.type === 'tool_result');
      expect(shell?.payload).toMatchObject({ kind: 'shell', stdout: sshd.remoteHome });
    },
    SIX_CLI_RUNS_MS,
  );

  it('a host already known with another key is not given a second one', async () => {
    const { sshd } = remote;
    const changed = join(sshd.dir, 'known_hosts_changed');
    // Another key for the same host and port: what a reinstalled host, or an impostor, presents.
    const oldKey = `[127.0.0.1]:${sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDl1EN+aN7cj5GdUYj4CCOzSZnC8U43dehbUHtPVv7O5\n`;
    writeFileSync(changed, oldKey);
    writeFileSync(
      join(remote.home, 'configs', 'app.json'),
      JSON.stringify({ remote: { ssh_config: sshd.configWithKnownHosts('changed', changed) } }),
    );
    const r = await remote.mewbo([
      'projects',
      'accept-host-key',
      `ssh://${sshd.alias}/srv`,
      sshd.fingerprint,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`[127.0.0.1]:${sshd.port} is already known with another key`);
    expect(r.stderr).toContain(`ssh-keygen -R [127.0.0.1]:${sshd.port}`);
    expect(readFileSync(changed, 'utf8')).toBe(oldKey);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ofType, type Harness } from '../agent/harness';
import { openRemoteHost, remoteHarness, remoteSessionIn } from './remote-session';
import { isAlive, startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';

// A host whose kernel lacks Landlock (issue #29 part 3): its shells run unconfined, and both the
// shell's payload and Settings' `shells.remoteSandboxes` say so, naming the host. The lack is faked
// the way the local sandbox tests fake it: the launcher's `--probe` answers ABI 0 (here the
// installed remote bundle's launcher is wrapped; everything else it does is the real launcher's).

const REASON = 'Landlock is not enabled in this kernel (faked by the test)';
let sshd: Sshd;
let h: Harness | undefined;
const appHome = tempDir('mewbo-nolandlock-app-home-');

beforeAll(async () => {
  sshd = await startSshd();
  // Install the bundle once, then stop its remote part so the next one probes the wrapped launcher.
  const first = await openRemoteHost(sshd, appHome.dir);
  const version = first.hello.version;
  await first.dispose();
  for (const pid of sshd.daemonPids()) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 400 && sshd.daemonPids().some(isAlive); i++)
    await new Promise((r) => setTimeout(r, 25));
  const launcher = join(sshd.remoteHome, '.mewbo-remote', version, 'build/landlock/mewbo-landlock');
  renameSync(launcher, `${launcher}.real`);
  writeFileSync(
    launcher,
    `#!/bin/sh\nif [ "$1" = --probe ]; then echo '{"abi":0,"reason":"${REASON}"}'; exit 0; fi\nexec "$0.real" "$@"\n`,
  );
  chmodSync(launcher, 0o755);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await sshd?.stop();
  appHome.cleanup();
});

describe('a remote host without Landlock', () => {
  it('runs its shells unconfined, and the shell payload and Settings say so', async () => {
    h = await remoteHarness(sshd);
    // Nothing connected yet: Settings lists no host.
    expect(await h.invoke('shells.remoteSandboxes', {})).toEqual({ hosts: [] });
    const id = await remoteSessionIn(h, sshd, join(sshd.remoteHome, 'nolandlock'));
    h.script.push(
      { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo ran' } }] },
      { text: 'done' },
    );
    const events = await h.waitRunEnd(id, await h.send(id, 'run it'), 60_000);
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.payload).toMatchObject({
      kind: 'shell',
      stdout: 'ran\n',
      sandbox: {
        mode: 'unconfined',
        reason: `no Landlock: ${REASON}; shell commands run unconfined`,
      },
    });
    expect(await h.invoke('shells.remoteSandboxes', {})).toEqual({
      hosts: [{ host: `ssh://${sshd.alias}/`, landlock_abi: 0, landlock_reason: REASON }],
    });
    // A connect, a turn and a shell on the host, on a loaded machine.
  }, 180_000);
});

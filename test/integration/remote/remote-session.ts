import { afterAll, afterEach, beforeAll } from 'vitest';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RemoteHost } from '../../../electron/host/remote/remote-host';
import { Harness } from '../agent/harness';
import type { PermissionModeWire } from '../../../shared/protocol/common';
import { startSshd, type Sshd } from '../../helpers/sshd';

// A session on a project on the test's SSH host, driven through the protocol as the desktop drives
// it: the host's config points ssh at the server, the project is `dir` there, in auto mode.

/** A harness whose ssh reaches `sshd`. */
export function remoteHarness(sshd: Sshd): Promise<Harness> {
  return Harness.start({ config: { remote: { ssh_config: sshd.clientConfig } } });
}

/**
 * The app's side of `sshd` alone (no session): this checkout's bundle installed there and linked,
 * its remote part's shells denied `appHome` (the desktop's $MEWBO_HOME).
 */
export function openRemoteHost(sshd: Sshd, appHome: string, keepaliveS = 60): Promise<RemoteHost> {
  return RemoteHost.open({
    target: { host: sshd.alias, path: '/' },
    sshConfig: sshd.clientConfig,
    installRoot: fileURLToPath(new URL('../../..', import.meta.url)),
    appHome,
    keepaliveS,
  });
}

/** A session whose project is `dir` on the host, in `mode` (auto: nobody approves); its id. */
export async function remoteSessionIn(
  h: Harness,
  sshd: Sshd,
  dir: string,
  mode: PermissionModeWire = 'auto',
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const session = await h.host.sessions.create({
    title: 'remote',
    project: null,
    root: dir,
    remote: `ssh://${sshd.alias}${dir}`,
  });
  await h.host.agent.setMode(session, mode);
  return session.id;
}

/**
 * The test file's SSH host, started once, and a harness per test that reaches it, closed after
 * that test: `sshd` is read inside tests (it exists once the file's beforeAll ran).
 */
export function useRemoteHost(): { readonly sshd: Sshd; harness(): Promise<Harness> } {
  let sshd: Sshd | undefined;
  let open: Harness | undefined;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });
  afterAll(async () => {
    await sshd?.stop();
  });
  return {
    get sshd() {
      if (!sshd) throw new Error('the SSH host is started by beforeAll: read sshd inside a test');
      return sshd;
    },
    async harness() {
      open = await remoteHarness(this.sshd);
      return open;
    },
  };
}

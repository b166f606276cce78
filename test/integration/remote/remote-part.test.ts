import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteSetupError } from '../../../electron/host/remote/remote-setup-error';
import { isAlive, startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';
import { openRemoteHost } from './remote-session';

// First contact with an SSH host: the probe, the copy of the remote bundle into a versioned
// folder of the remote home, the remote part answering the app's protocol over the channel.

let sshd: Sshd;
const appHome = tempDir('mewbo-app-home-');
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => {
  await sshd?.stop();
  appHome.cleanup();
});

const open = (server: Sshd, keepaliveS = 60) => openRemoteHost(server, appHome.dir, keepaliveS);

async function until(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the remote part', () => {
  it('is copied into a versioned folder of the remote home, replacing other versions, and answers there', async () => {
    const base = join(sshd.remoteHome, '.mewbo-remote');
    mkdirSync(join(base, '0.0.1-old', 'dist'), { recursive: true });
    mkdirSync(join(base, 'home', 'configs'), { recursive: true });
    writeFileSync(join(base, 'home', 'configs', 'kept.json'), '{}');
    const remote = await open(sshd);
    try {
      const version = remote.hello.version;
      expect(readFileSync(join(base, version, 'REMOTE_VERSION'), 'utf8')).toBe(version);
      expect(existsSync(join(base, version, 'build/landlock/mewbo-landlock'))).toBe(true);
      expect(existsSync(join(base, '0.0.1-old'))).toBe(false);
      expect(existsSync(join(base, 'home', 'configs', 'kept.json'))).toBe(true);
      expect(remote.hello.landlock_abi).toBeGreaterThan(0);
      // The tool ran under the SSH server: its environment is the remote's.
      const project = join(sshd.dir, 'project');
      mkdirSync(project);
      const run = await remote.runTool({
        session_id: 's_remote1',
        agent_id: 'root',
        root: project,
        tool: 'aider_shell_tool',
        args: { command: 'printf %s "$HOME"' },
      });
      expect(run.payload).toMatchObject({ kind: 'shell', stdout: sshd.remoteHome, exit_code: 0 });
      expect(run.payload.sandbox).toMatchObject({ mode: 'landlock' });
    } finally {
      await remote.dispose();
    }
  });

  it('uses the bundle already there on the next connection', async () => {
    const first = await open(sshd);
    const version = first.hello.version;
    await first.dispose();
    const marker = join(sshd.remoteHome, '.mewbo-remote', version, 'marker');
    writeFileSync(marker, 'left by the test');
    const second = await open(sshd);
    await second.dispose();
    expect(readFileSync(marker, 'utf8')).toBe('left by the test');
  });

  it('refuses a host without Node, or with a Node older than 20, saying what to install', async () => {
    const bin = join(sshd.dir, 'bin-no-node');
    mkdirSync(bin);
    symlinkSync('/usr/bin/uname', join(bin, 'uname'));
    const bare = await startSshd({ env: { PATH: bin } });
    try {
      const missing = await open(bare).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(RemoteSetupError);
      expect((missing as Error).message).toMatch(/has no node on its PATH: install Node\.js 20/);
      writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v18.19.0\n', { mode: 0o755 });
      const old = await open(bare).catch((e: unknown) => e);
      expect(old).toBeInstanceOf(RemoteSetupError);
      expect((old as Error).message).toMatch(/has node v18\.19\.0; .* needs Node\.js 20 or newer/);
      // Nothing was copied to a host that cannot run it.
      expect(existsSync(join(bare.remoteHome, '.mewbo-remote'))).toBe(false);
    } finally {
      await bare.stop();
    }
  });

  it('outlives its link by the keepalive with its shells running, then ends them and exits', async () => {
    const own = await startSshd();
    try {
      const remote = await open(own, 8);
      const project = join(own.dir, 'keepalive');
      mkdirSync(project);
      const started = await remote.runTool({
        session_id: 's_keep1',
        agent_id: 'root',
        root: project,
        tool: 'aider_shell_tool',
        args: { command: 'echo $$ > shell.pid; exec sleep 300', run_in_background: true },
      });
      expect(started.payload).toMatchObject({ kind: 'shell', status: 'running' });
      // `>` makes the file before echo writes to it: wait for the whole line.
      const pidFile = join(project, 'shell.pid');
      await until(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'),
        'the shell to start',
      );
      const shellPid = Number(readFileSync(pidFile, 'utf8'));
      const [daemon] = own.daemonPids();
      expect(daemon).toBeGreaterThan(0);
      await remote.dispose();
      // The link is gone; the remote part and its shell are not (yet).
      expect(isAlive(daemon!)).toBe(true);
      expect(isAlive(shellPid)).toBe(true);
      await until(() => !isAlive(shellPid) && !isAlive(daemon!), 'the keepalive to run out');
      expect(own.daemonPids()).toEqual([]);
    } finally {
      await own.stop();
    }
  }, 180_000);
});

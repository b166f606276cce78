import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { processesWith, startSshd, type Sshd } from '../../helpers/sshd';
import { tempDir } from '../../helpers/temp';
import { openRemoteHost } from './remote-session';

// How the app's link reaches the remote part (issue #29): the master connection forwards a socket
// of the app's to the remote part's own, so no relay runs on the host and no channel process
// here; where the server refuses to forward to a Unix socket, the relay on a channel does it.

const appHome = tempDir('mewbo-app-home-');
afterAll(() => appHome.cleanup());

/** The relays running on the host of `server` (the remote part's processes that are not its daemon). */
const relays = (server: Sshd) =>
  processesWith('remote-part').filter(
    (p) => p.argv.some((a) => a.startsWith(server.remoteHome)) && !p.argv.includes('--daemon'),
  );

async function linkedThenDropped(server: Sshd): Promise<{ relays: number; channels: number }> {
  const remote = await openRemoteHost(server, appHome.dir);
  try {
    const project = join(server.dir, 'project');
    mkdirSync(project);
    const run = () =>
      remote.runTool({
        session_id: 's_link1',
        agent_id: 'root',
        root: project,
        tool: 'aider_shell_tool',
        args: { command: 'printf %s "$HOME"' },
      });
    expect((await run()).payload).toMatchObject({ stdout: server.remoteHome, exit_code: 0 });
    const seen = { relays: relays(server).length, channels: server.clientPids('channel').length };
    // Dropped with its master, the link comes back the same way and serves calls again.
    for (const pid of server.clientPids('master')) process.kill(pid, 'SIGKILL');
    await new Promise<void>((resolve) => {
      const off = remote.onDidChangeState((state) => {
        if (state !== 'connected') return;
        off.dispose();
        resolve();
      });
    });
    expect((await run()).payload).toMatchObject({ stdout: server.remoteHome, exit_code: 0 });
    expect(relays(server).length).toBe(seen.relays);
    expect(server.clientPids('channel').length).toBe(seen.channels);
    return seen;
  } finally {
    await remote.dispose();
  }
}

describe('the link to the remote part', () => {
  it('is a socket the master connection forwards to the remote part: no relay on the host, no channel process here, after a drop too', async () => {
    const server = await startSshd();
    try {
      expect(await linkedThenDropped(server)).toEqual({ relays: 0, channels: 0 });
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('goes through the relay on a channel where the server refuses to forward to a Unix socket', async () => {
    const server = await startSshd({ sshdConfig: ['AllowStreamLocalForwarding no'] });
    try {
      expect(await linkedThenDropped(server)).toEqual({ relays: 1, channels: 1 });
    } finally {
      await server.stop();
    }
  }, 120_000);
});

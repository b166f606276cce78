import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import WebSocket from 'ws';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';

// Issue #17.4 (the web host's part): a restarted host keeps its port and the browser's login, so
// an open tab reconnects by itself; a port someone else took is given up for a new one. Ports are
// whatever the first start found free; nothing here is fixed.

let home: ReturnType<typeof tempDir> | undefined;
let host: HostProcess | undefined;
let squatter: Server | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
  if (squatter) await new Promise((r) => squatter!.close(r));
  squatter = undefined;
  home?.cleanup();
});

function upgradeStatus(url: string, cookie: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { cookie } });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

async function until<T>(get: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('web host restart', () => {
  it('keeps its port and the login: the old cookie opens the socket, an open client reconnects', async () => {
    home = tempDir('mewbo-restart-');
    host = await startHost(home.dir);
    const { port, cookie, wsUrl } = host;
    const tab = host.connect();
    const { session } = await tab.client.invoke('sessions.create', { title: 'before' });
    await host.stop('SIGKILL');

    host = await startHost(home.dir);
    expect(host.port).toBe(port);
    expect(await upgradeStatus(wsUrl, cookie)).toBe(101);
    // The client made before the restart, never told about it, reconnects and is served.
    const listed = await until(async () => {
      const r = await tab.client.invoke('sessions.list', {});
      return r.sessions.length ? r.sessions : undefined;
    }, 'the old client to reconnect');
    expect(listed.map((s) => s.id)).toEqual([session.id]);
    tab.close();
  });

  it('a remembered port someone else took is given up for a free one (and remembered instead)', async () => {
    home = tempDir('mewbo-restart-taken-');
    host = await startHost(home.dir);
    const { port, cookie } = host;
    await host.stop();
    squatter = createServer((_req, res) => res.end('someone else'));
    await new Promise<void>((r) => squatter!.listen(port, '127.0.0.1', r));

    host = await startHost(home.dir);
    expect(host.port).not.toBe(port);
    // A new origin: the cookie of the old port is not this host's (cookies carry the port name).
    expect(await upgradeStatus(host.wsUrl, cookie)).toBe(403);
    expect(await upgradeStatus(host.wsUrl, host.cookie)).toBe(101);
    const moved = host.port;
    await host.stop();
    host = await startHost(home.dir);
    expect(host.port).toBe(moved);
  });
});

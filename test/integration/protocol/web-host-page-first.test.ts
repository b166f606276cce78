import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Host } from '../../../electron/host/host';
import type { Router } from '../../../electron/host/rpc/router';
import { WebServer } from '../../../electron/web/web-server';
import { CLI } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { exchangeCode } from '../../helpers/web-login';

// `mewbo serve` answers its page and the login before it loads the host (issue #26 part 4): the
// server listens and prints the login link first, and its WebSockets wait for the router.

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir('mewbo-page-first-');
});
afterEach(() => home.cleanup());

/** A web server whose router comes when `loaded` is called; `upgradeWaits` once one waits for it. */
function serverAwaitingRouter() {
  let loaded!: (router: Router) => void;
  const router = new Promise<Router>((resolve) => (loaded = resolve));
  let asked!: () => void;
  const upgradeWaits = new Promise<void>((resolve) => (asked = resolve));
  const server = new WebServer({
    router: () => (asked(), router),
    staticDir: home.dir,
    secret: randomBytes(32),
  });
  return { server, loaded, upgradeWaits };
}

describe('mewbo serve answers the page before the host loads', () => {
  it('prints its login link before the host loads: a host that cannot load fails after it, named', async () => {
    // The sessions folder is a file: Host.create fails on it.
    writeFileSync(join(home.dir, 'sessions'), 'not a folder\n');
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
      env: { ...process.env, MEWBO_HOME: home.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/login\?code=\S+/);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^mewbo serve: .*sessions/m);
  });

  it('answers the page and the login while the router loads; the WebSocket opens once it has', async () => {
    writeFileSync(join(home.dir, 'index.html'), '<div id="root"></div>');
    const { server, loaded } = serverAwaitingRouter();
    const host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
    try {
      await server.listen();
      const cookie = await exchangeCode(server.newLoginUrl().url);
      const page = await fetch(`${server.origin}/`, { headers: { cookie } });
      expect(await page.text()).toContain('<div id="root">');

      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
        headers: { cookie, origin: server.origin },
      });
      let open = false;
      const opened = new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve(void (open = true)));
        ws.once('error', reject);
      });
      // The upgrade waits for the router: the page is answered meanwhile, the socket is not open.
      const again = await fetch(`${server.origin}/`);
      expect(again.status).toBe(200);
      expect(open).toBe(false);

      loaded(host.router);
      await opened;
      ws.close();
    } finally {
      await server.dispose();
      await host.dispose();
    }
  });

  it('a WebSocket waiting for the router when the server is disposed is refused, never opened', async () => {
    // `mewbo serve` stopped (SIGTERM) while the host loaded: an upgrade that went on afterwards
    // opened a socket on the disposed server and kept the process alive.
    const { server, loaded, upgradeWaits } = serverAwaitingRouter();
    const host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
    try {
      await server.listen();
      const cookie = await exchangeCode(server.newLoginUrl().url);
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
        headers: { cookie, origin: server.origin },
      });
      let open = false;
      ws.on('open', () => (open = true));
      const ended = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      ws.on('error', () => undefined);
      await upgradeWaits;
      await server.dispose();
      loaded(host.router);
      await ended;
      expect(open).toBe(false);
    } finally {
      await host.dispose();
    }
  });
});

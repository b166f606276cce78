import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Host } from '../host/host';
import { homePaths } from '../host/config/paths';
import { collectStartUpGarbage } from '../host/system/startup-heap';
import { browserOpener } from '../host/system/browser-opener';
import { WebServer, type WebServerOptions } from '../web/web-server';
import { loadOrCreateWebSecret } from '../web/web-secret';
import { rememberedPort, rememberPort, webSecretFile } from '../web/web-host-state';
import { HOST_LOAD_AFTER_MS, STARTUP_HOLD_AFTER_LOAD_MS } from '../web/constants';
import { parseCliArgs, portOption, type CliCommand } from './command';

const usage = `Usage: mewbo serve [--port N] [--host H] [--open]

Serves the app's UI and its protocol on http://H:N (default 127.0.0.1, the port it used last time,
or a free one when that is taken; --port N is remembered for next time; --port 0 picks a free port
and does not remember it). It prints a one-time login link (single use, valid one minute);
opening it logs the browser in with a cookie that stays valid across restarts. Another browser
gets a new link from 'mewbo login' or from the app's menu. --open starts your browser ($BROWSER,
else the system opener) logged in with a link of its own, which it is handed through an owner-only
page under $MEWBO_HOME/state, never on its command line (that every process can read); with
--host 0.0.0.0 or :: it opens the loopback address.`;

/**
 * --open: the browser gets a login link of its own, on an address of this machine, through a
 * private redirecting page (browser-opener.ts). The page is removed once its code has expired.
 * Returns what to clean up at exit; failure to open is told, never fatal.
 */
async function openLoggedIn(server: WebServer, pagesDir: string): Promise<() => void> {
  const opener = browserOpener();
  if (!opener) {
    process.stderr.write(
      'mewbo serve: --open: nothing here opens a browser (no $BROWSER, no display); open the link above\n',
    );
    return () => {};
  }
  const { url, expiresAt } = server.newLoginUrl(server.localOrigin);
  let page: string;
  try {
    page = await opener.openPrivately(url, pagesDir);
  } catch (err) {
    process.stderr.write(`mewbo serve: --open: ${(err as Error).message}; open the link above\n`);
    return () => {};
  }
  const remove = () => rmSync(page, { force: true });
  const timer = setTimeout(remove, Math.max(0, expiresAt - Date.now()));
  timer.unref();
  return () => {
    clearTimeout(timer);
    remove();
  };
}

/**
 * Listens on the explicit port, else on the remembered one (an open tab reconnects to the same
 * origin, keeping its cookie and local state), else, when that is taken, on a free port.
 */
async function listen(
  base: Omit<WebServerOptions, 'port'>,
  explicit: number | undefined,
  remembered: number | null,
): Promise<WebServer> {
  const first = new WebServer({ ...base, port: explicit ?? remembered ?? 0 });
  try {
    await first.listen();
    return first;
  } catch (err) {
    await first.dispose().catch(() => {});
    if (explicit !== undefined || remembered === null) throw err;
    process.stderr.write(`mewbo serve: port ${remembered} is taken; using a new one\n`);
    const second = new WebServer({ ...base, port: 0 });
    await second.listen();
    return second;
  }
}

/**
 * The host (config, sessions, projects, model SDKs, the protocol's schemas): most of serve's code,
 * loaded once the server listens, so the page and the login answer while it loads.
 */
async function loadHost(loginLinks: () => WebServer): Promise<Host> {
  const { Host } = await import('../host/host');
  return Host.create({ distDir: fileURLToPath(new URL('.', import.meta.url)), loginLinks });
}

/**
 * `startedUp` lets V8's young generation grow and TurboFan compile again; the registry holds
 * both from before this module's imports load the host (see startup-heap.ts), and they are let go
 * at the first session opened or once the first page has had time to open
 * (STARTUP_HOLD_AFTER_LOAD_MS), whichever comes first.
 */
export const serveCommand = (startedUp: () => boolean): CliCommand => ({
  name: 'serve',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, open: { type: 'boolean' } },
    });
    const explicit = portOption(values.port);
    const paths = homePaths();
    const stopped = new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    // The server listens first and answers the page and the login; the host loads at the first
    // WebSocket, or HOST_LOAD_AFTER_MS after listening with none (constants.ts).
    const links: { server?: WebServer } = {};
    let load!: () => void;
    const host = new Promise<void>((resolve) => (load = resolve)).then(() =>
      loadHost(() => links.server!),
    );
    // A host that fails to load fails the command below; upgrades waiting on it are refused.
    host.catch(() => {});
    const router = () => {
      load();
      return host.then((h) => h.router);
    };
    const server = await listen(
      {
        router,
        staticDir: fileURLToPath(new URL('./renderer', import.meta.url)),
        host: values.host ?? '127.0.0.1',
        secret: loadOrCreateWebSecret(webSecretFile(paths)),
      },
      explicit,
      explicit === undefined ? rememberedPort(paths) : null,
    );
    links.server = server;
    const loadAnyway = setTimeout(load, HOST_LOAD_AFTER_MS);
    // --port N is remembered too, so `mewbo login` and an open tab look there next; --port 0 is not.
    if (explicit !== 0) await rememberPort(paths, server.port);
    const { url } = server.newLoginUrl();
    process.stdout.write(
      `mewbo web host listening on ${server.origin}\n` +
        `Open this one-time login link (it works once, for one minute):\n${url}\n`,
    );
    const closeOpened = values.open
      ? await openLoggedIn(server, join(paths.stateDir, 'login-pages'))
      : () => {};
    let loaded: Host;
    try {
      loaded = await host;
      clearTimeout(loadAnyway);
    } catch (err) {
      clearTimeout(loadAnyway);
      closeOpened();
      await server.dispose();
      throw err;
    }
    // Ended by the clock, start-up leaves a host with no session: its garbage can go at once.
    const startUpEnds = setTimeout(() => {
      if (startedUp()) collectStartUpGarbage();
    }, STARTUP_HOLD_AFTER_LOAD_MS);
    const firstSession = loaded.sessions.onDidOpen(startedUp);
    await stopped;
    clearTimeout(startUpEnds);
    firstSession.dispose();
    closeOpened();
    await server.dispose();
    await loaded.dispose();
    return 0;
  },
});

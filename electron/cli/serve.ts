import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { Host } from '../host/host';
import { WebServer } from '../web/web-server';
import { parseCliArgs, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo serve [--port N] [--host H] [--open]

Serves the app's UI and its protocol on http://H:N (default 127.0.0.1, a free port). The URL it
prints carries a random token; only a client holding it can connect.`;

/** Opens a URL in the desktop's browser where one is set up; failure is harmless. */
function openInBrowser(url: string): void {
  const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'run the web host: the UI and the protocol over WebSocket on 127.0.0.1',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, open: { type: 'boolean' } },
    });
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port: not a port number: ${values.port}`);
    const host = await Host.create({ distDir: fileURLToPath(new URL('.', import.meta.url)) });
    const server = new WebServer({
      router: host.router,
      staticDir: fileURLToPath(new URL('./renderer', import.meta.url)),
      host: values.host ?? '127.0.0.1',
      port,
      token: process.env.MEWBO_WEB_TOKEN || undefined,
    });
    const { url } = await server.listen();
    process.stdout.write(`mewbo web host listening\n${url}\n`);
    if (values.open) openInBrowser(url);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.dispose();
    await host.dispose();
    return 0;
  },
};

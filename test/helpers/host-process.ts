import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '../../renderer/src/transport/transport';
import { WsTransport } from '../../renderer/src/transport/ws-transport';
import { exchangeCode, newLoginUrl, socketWithCookie } from './web-login';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = `${REPO_ROOT}/dist/cli.js`;

export interface HostProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The one-time login URL the host printed (a browser opens it: page.goto(host.url)). */
  url: string;
  /** ws://127.0.0.1:PORT/ws; the upgrade needs `cookie`. */
  wsUrl: string;
  /** The login cookie (`name=value`), bought with a code of its own at start. */
  cookie: string;
  /** A new one-time login URL, asked of the host as `mewbo login` does. */
  newLoginUrl(): Promise<string>;
  /** What the host has written to stderr so far (warnings about its config, say). */
  stderr(): string;
  /** A protocol client speaking to this host the way the renderer does. */
  connect(): { client: Client; close(): void };
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `mewbo serve` with the given MEWBO_HOME; resolves once it prints its login URL. With no
 * `--port`, as a user runs it: a free port the first time, the same port after a restart.
 */
export async function startHost(
  home: string,
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Promise<HostProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, MEWBO_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`host did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/\S+\/login\?code=\S+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code}: ${stderr}`));
    });
  });
  const u = new URL(url);
  const origin = u.origin;
  const cookie = await exchangeCode(await newLoginUrl(origin, home));
  const wsUrl = `ws://${u.host}/ws`;
  return {
    child,
    origin,
    port: Number(u.port),
    url,
    wsUrl,
    cookie,
    newLoginUrl: () => newLoginUrl(origin, home),
    stderr: () => stderr,
    connect() {
      const transport = new WsTransport(wsUrl, socketWithCookie(cookie));
      return { client: new Client(transport), close: () => transport.close() };
    },
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

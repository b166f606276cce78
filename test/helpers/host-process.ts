import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Client } from '../../renderer/src/transport/transport';
import { WsTransport } from '../../renderer/src/transport/ws-transport';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = `${REPO_ROOT}/dist/cli.js`;

export interface HostProcess {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  /** A protocol client speaking to this host the way the renderer does. */
  connect(): { client: Client; close(): void };
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `mewbo serve` on a free port with the given MEWBO_HOME; resolves once it prints its URL. */
export async function startHost(home: string, env: NodeJS.ProcessEnv = {}): Promise<HostProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
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
      const m = /http:\/\/\S+/.exec(out);
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
  const wsUrl = `ws://${u.host}/ws?token=${u.searchParams.get('token')}`;
  return {
    child,
    url,
    wsUrl,
    connect() {
      const transport = new WsTransport(wsUrl, WebSocket as unknown as typeof globalThis.WebSocket);
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

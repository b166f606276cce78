import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';

// A page served by another local server (another port on 127.0.0.1: a dev server, anything the
// user runs) is another origin; with the login cookie in the browser it must still not drive the
// host. The check must compare the port, not only the host name.

let home: ReturnType<typeof tempDir>;
let host: HostProcess | undefined;
afterEach(async () => {
  await host?.stop();
  home?.cleanup();
});

function openSocket(url: string, origin: string, cookie: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin, headers: { cookie } });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('the web host origin check', () => {
  it('accepts its own origin and refuses the same host on another port', async () => {
    home = tempDir();
    host = await startHost(home.dir);
    const own = await openSocket(host.wsUrl, host.origin, host.cookie);
    own.close();
    const other = `http://127.0.0.1:${host.port === 65535 ? 65534 : host.port + 1}`;
    await expect(openSocket(host.wsUrl, other, host.cookie)).rejects.toThrow(/403/);
    await expect(
      openSocket(host.wsUrl, `http://localhost:${host.port + 1}`, host.cookie),
    ).rejects.toThrow(/403/);
  });
});

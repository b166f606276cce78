import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { WebServer } from '../../../electron/web/web-server';
import { Router, type HandlerMap } from '../../../electron/host/rpc/router';
import { halfOpen, rawGet, rawRequest, startUnprotectedServer } from './raw-http';

// Route 11 of the trust boundary: malformed URLs, oversize headers and half-open requests against
// the real `mewbo serve` (no token needed). Each gets a 4xx or a timeout, and the host still serves.

let home: ReturnType<typeof tempDir>;
let host: HostProcess;
beforeEach(async () => {
  home = tempDir('mewbo-attack-http-');
  host = await startHost(home.dir);
});
afterEach(async () => {
  await host.stop();
  home.cleanup();
});

const port = () => Number(new URL(host.url).port);

async function stillServes(): Promise<void> {
  expect(host.child.exitCode).toBeNull();
  expect((await rawGet(port(), '/')).status).toBe(200);
}

function upgrade(target: string): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`
  );
}

describe('malformed URLs', () => {
  it('GET /% kills a server whose handler decodes the path unguarded; mewbo serve answers 400 and keeps serving', async () => {
    const bare = await startUnprotectedServer();
    await rawGet(bare.port, '/%');
    expect(await bare.exited).not.toBe(0);

    expect((await rawGet(port(), '/%')).status).toBe(400);
    await stillServes();
  });

  it('an upgrade to "//" kills an unguarded upgrade handler; mewbo serve refuses it and keeps serving', async () => {
    const bare = await startUnprotectedServer();
    await rawRequest(bare.port, upgrade('//'));
    expect(await bare.exited).not.toBe(0);

    for (const target of ['//', '/%', '/ws%', '/%E0%A4%A', '*']) {
      const answer = await rawRequest(port(), upgrade(target));
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
    }
    await stillServes();
  });

  it('every malformed request target gets a 4xx', async () => {
    for (const target of [
      '/%',
      '/%zz',
      '/%E0%A4%A',
      '//',
      '//evil.example/x',
      '/%00',
      '*',
      'http://x/%',
    ]) {
      const answer = await rawGet(port(), target);
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
    }
    const garbage = await rawRequest(port(), 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    await stillServes();
  });
});

describe('oversize and half-open requests', () => {
  it('a 64 KiB header block gets 431 and the host keeps serving', async () => {
    const answer = await rawGet(port(), '/', `X-Big: ${'a'.repeat(64 * 1024)}\r\n`);
    expect(answer.status).toBe(431);
    await stillServes();
  });

  it('half-open requests do not stop the host answering others', async () => {
    const open = await Promise.all(Array.from({ length: 50 }, () => halfOpen(port())));
    await stillServes();
    for (const o of open) o.socket.destroy();
  });

  it('a half-open request is cut with 408 at the headers timeout; without one it is held forever', async () => {
    const timeoutMs = 300;
    // Unprotected: no headers timeout, the socket is still held long after the hardened one closed.
    const bare = await startUnprotectedServer({ headersTimeoutMs: 0 });
    const held = await halfOpen(bare.port);
    const staticDir = tempDir('mewbo-static-');
    mkdirSync(staticDir.dir, { recursive: true });
    writeFileSync(join(staticDir.dir, 'index.html'), '<!doctype html>');
    const server = new WebServer({
      router: new Router({} as HandlerMap, {}),
      staticDir: staticDir.dir,
      port: 0,
      secret: randomBytes(32),
      headersTimeoutMs: timeoutMs,
      requestTimeoutMs: timeoutMs,
    });
    try {
      const { port: p } = await server.listen();
      const cut = await halfOpen(p);
      expect(await cut.closed).toMatch(/^HTTP\/1\.1 408/);
      const stillHeld = await Promise.race([
        held.closed.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), timeoutMs * 3)),
      ]);
      expect(stillHeld).toBe(true);
      expect((await rawGet(p, '/')).status).toBe(200);
    } finally {
      held.socket.destroy();
      bare.stop();
      await server.dispose();
      staticDir.cleanup();
    }
  });
});

import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { EgressProxy, type Decide } from '../../../electron/host/network/egress-proxy';
import { hostKey } from '../../../electron/host/network/host-name';
import {
  bodyOf,
  curl,
  openTunnel,
  readAll,
  startHttpOrigin,
  startTcpOrigin,
} from '../../helpers/net-fixtures';
import { halfOpen, keepAliveClient, rawRequest } from '../../reliability/attacks/raw-http';

// The proxy's mechanics with real sockets and a real curl: forwarding, tunnels, limits, flow
// control and disposal. Its decisions here are a stub (allowed.test and the loopback literals go
// to 127.0.0.1, anything else is refused); the policy is tested in session-network.test.ts.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const stubDecide: Decide = async (target) => {
  const key = hostKey(target.host);
  if (key === 'allowed.test' || key === '127.0.0.1') return { ok: true, address: '127.0.0.1' };
  if (key === '::1') return { ok: true, address: '::1' };
  return { ok: false, status: 403, message: `refused ${key}:${target.port} by the stub` };
};

async function proxy(opts: Partial<Parameters<typeof EgressProxy.listen>[0]> = {}) {
  const p = await EgressProxy.listen({ decide: stubDecide, ...opts });
  cleanups.push(() => p.dispose());
  return p;
}
async function origin(host?: string) {
  const o = await startHttpOrigin(host);
  cleanups.push(() => o.close());
  return o;
}
const via = (p: EgressProxy) => ['-x', `http://127.0.0.1:${p.port}`];

describe('forwarding and tunnels', () => {
  test('curl downloads through an absolute-form request and through a CONNECT tunnel, byte for byte', async () => {
    const [p, o] = [await proxy(), await origin()];
    const { sha } = bodyOf(3 * 1024 * 1024 + 17);
    for (const tunnel of [[], ['-p']]) {
      const r = await curl([
        ...via(p),
        ...tunnel,
        `http://allowed.test:${o.port}/bytes/${3 * 1024 * 1024 + 17}`,
      ]);
      expect(r.code).toBe(0);
      expect(createHash('sha256').update(r.stdout).digest('hex')).toBe(sha);
    }
  });

  test('a refusal is the decision status with its one-line reason as the body', async () => {
    const p = await proxy();
    const plain = await curl([...via(p), '-w', '%{http_code}', 'http://denied.test/x']);
    expect(plain.stdout.toString()).toBe('refused denied.test:80 by the stub\n403');
    const tunnel = await curl([...via(p), '-p', 'http://denied.test:8080/x']);
    expect(tunnel.code).toBe(56);
    expect(tunnel.stderr).toContain('403');
  });

  test('the Host header of an absolute-form request is replaced by the URL host (hop-by-hop headers dropped)', async () => {
    const [p, o] = [await proxy(), await origin()];
    const r = await rawRequest(
      p.port,
      `GET http://allowed.test:${o.port}/echo HTTP/1.1\r\nHost: 127.0.0.1:1\r\nProxy-Authorization: Basic c2VjcmV0\r\nConnection: close, X-Drop\r\nX-Drop: 1\r\nX-Keep: 2\r\n\r\n`,
    );
    expect(r.status).toBe(200);
    expect(r.text).toContain(`host=allowed.test:${o.port}`);
    expect(o.seen[0]!.host).toBe(`allowed.test:${o.port}`);
    expect(o.seen[0]!.headers).not.toHaveProperty('proxy-authorization');
    expect(o.seen[0]!.headers).not.toHaveProperty('x-drop');
    expect(o.seen[0]!.headers).toHaveProperty('x-keep', '2');
  });

  test('a CONNECT whose Host header names another destination is refused before any decision', async () => {
    let decided = 0;
    const p = await proxy({ decide: async (t, c, s) => (decided++, stubDecide(t, c, s)) });
    const same = await openTunnel(p.port, 'allowed.test:1');
    same.socket.destroy();
    const r = await rawRequest(
      p.port,
      'CONNECT allowed.test:443 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n',
    );
    expect(r.status).toBe(400);
    expect(r.text).toContain('names another destination than the CONNECT line');
    expect(decided).toBe(1);
  });

  test('CONNECT reaches IPv4 and IPv6 literals, and a plain request an IPv6 literal URL', async () => {
    const p = await proxy();
    const echo = async (host: string) => {
      const o = await startTcpOrigin((s) => s.pipe(s), host);
      cleanups.push(() => o.close());
      return o.port;
    };
    for (const [authority, port] of [
      ['127.0.0.1', await echo('127.0.0.1')],
      ['[::1]', await echo('::1')],
    ] as const) {
      const t = await openTunnel(p.port, `${authority}:${port}`);
      expect(t.status).toBe(200);
      t.socket.end('ping');
      expect((await readAll(t.socket)).toString()).toBe('ping');
    }
    const o6 = await origin('::1');
    const r = await curl([...via(p), `http://[::1]:${o6.port}/v6`]);
    expect(r.stdout.toString()).toContain('origin saw GET /v6');
  });

  test('an upgrade of an absolute-form request (WebSocket over plain HTTP) is forwarded and spliced', async () => {
    const p = await proxy();
    const server = createHttpServer();
    server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${req.headers.upgrade}\r\nConnection: Upgrade\r\nX-Saw-Host: ${req.headers.host} ${req.url}\r\n\r\n`,
      );
      socket.write(head);
      socket.pipe(socket);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    });
    const port = (server.address() as { port: number }).port;
    const s = connect(p.port, '127.0.0.1');
    s.write(
      `GET http://allowed.test:${port}/ws?x=1 HTTP/1.1\r\nHost: evil.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nearly`,
    );
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    while (!text.endsWith('early')) await new Promise((r) => setTimeout(r, 10));
    expect(text).toMatch(/^HTTP\/1\.1 101/);
    expect(text).toContain(`X-Saw-Host: allowed.test:${port} /ws?x=1`);
    s.write(' and later');
    while (!text.endsWith('later')) await new Promise((r) => setTimeout(r, 10));
    s.destroy();
  });

  test('an origin-form request (a client that thinks the proxy is the server) is told how to use it', async () => {
    const p = await proxy();
    const r = await rawRequest(
      p.port,
      'GET /index.html HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n',
    );
    expect(r.status).toBe(400);
    expect(r.text).toContain('send absolute-form requests');
  });

  test('a tunnel stays open one way after the client half-closes it', async () => {
    const p = await proxy();
    // The origin answers only once it has read everything the client sent (end of its input).
    const o = await startTcpOrigin((s) => {
      let n = 0;
      s.on('data', (d: Buffer) => (n += d.length));
      s.on('end', () => s.end(`got ${n} bytes`));
    });
    cleanups.push(() => o.close());
    const t = await openTunnel(p.port, `allowed.test:${o.port}`);
    expect(t.status).toBe(200);
    t.socket.end(Buffer.alloc(100_000, 1));
    expect((await readAll(t.socket)).toString()).toBe('got 100000 bytes');
  });

  test('many tunnels at once each reach their own end', async () => {
    const p = await proxy();
    const o = await startTcpOrigin((s) => s.pipe(s));
    cleanups.push(() => o.close());
    const replies = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const t = await openTunnel(p.port, `allowed.test:${o.port}`);
        t.socket.end(`tunnel ${i}`);
        return (await readAll(t.socket)).toString();
      }),
    );
    expect(replies).toEqual(Array.from({ length: 200 }, (_, i) => `tunnel ${i}`));
  });

  test('a client that does not read holds the origin back: the proxy buffers a bounded amount', async () => {
    const p = await proxy();
    const total = 64 * 1024 * 1024;
    let written = 0;
    const o = await startTcpOrigin((s) => {
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
        s.end();
      };
      pump();
    });
    cleanups.push(() => o.close());
    const t = await openTunnel(p.port, `allowed.test:${o.port}`);
    // The client reads nothing: wait until the origin stops being able to write.
    let last = -1;
    for (let still = 0; still < 5;) {
      await new Promise((r) => setTimeout(r, 100));
      still = written === last ? still + 1 : 0;
      last = written;
    }
    expect(written).toBeLessThan(total / 2);
    expect(p.bufferedBytes).toBeLessThan(8 * 1024 * 1024);
    // Reading again drains it all, in order.
    const got = await readAll(t.socket);
    expect(got.length).toBe(total);
  });
});

describe('plain HTTP forwarding', () => {
  /** A destination that answers each request with `answers[path]`, written in the pieces given. */
  async function scripted(answers: Record<string, string[]>) {
    const o = await startTcpOrigin((s) => {
      let head = '';
      s.on('data', async (d: Buffer) => {
        head += d.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        const path = /^\S+ (\S+)/.exec(head)![1]!;
        head = '';
        for (const piece of answers[path] ?? [
          'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n',
        ]) {
          s.write(piece);
          await new Promise((r) => setTimeout(r, 5));
        }
        if (path.startsWith('/close') || path.startsWith('/cut')) s.end();
      });
    });
    cleanups.push(() => o.close());
    return o.port;
  }

  test('curl keeps one connection for two hosts and each request is judged on its own', async () => {
    const hosts: string[] = [];
    const p = await proxy({
      decide: async (t, c, s) => (hosts.push(hostKey(t.host)), stubDecide(t, c, s)),
    });
    const o = await origin();
    const r = await curl([
      ...via(p),
      '-w',
      ' connects=%{num_connects}\n',
      `http://allowed.test:${o.port}/a`,
      `http://127.0.0.1:${o.port}/b`,
      `http://denied.test:${o.port}/c`,
    ]);
    const out = r.stdout.toString();
    expect(out).toContain(`origin saw GET /a host=allowed.test:${o.port}`);
    expect(out).toContain(`origin saw GET /b host=127.0.0.1:${o.port}`);
    expect(out).toContain(`refused denied.test:${o.port} by the stub`);
    // One connection to the proxy for all three (the second and third connect nothing new).
    expect(out.match(/connects=\d/g)).toEqual(['connects=1', 'connects=0', 'connects=0']);
    expect(hosts).toEqual(['allowed.test', '127.0.0.1', 'denied.test']);
  });

  test('a request whose body has two lengths is answered 400 and what it hid reaches nobody', async () => {
    const [p, o] = [await proxy(), await origin()];
    const hidden = `GET http://allowed.test:${o.port}/hidden HTTP/1.1\r\nHost: x\r\n\r\n`;
    for (const framing of [
      `Content-Length: 0\r\nContent-Length: ${hidden.length}`,
      `Content-Length: ${hidden.length}\r\nTransfer-Encoding: chunked`,
      `Transfer-Encoding: chunked\r\nTransfer-Encoding: identity`,
    ]) {
      const r = await rawRequest(
        p.port,
        `POST http://allowed.test:${o.port}/ HTTP/1.1\r\nHost: allowed.test\r\n${framing}\r\n\r\n${hidden}`,
      );
      expect(r.status, framing).toBe(400);
    }
    expect(o.seen).toEqual([]);
  });

  test('a chunked upload reaches the destination chunked, whole, without a Content-Length', async () => {
    const [p, o] = [await proxy(), await origin()];
    const r = await curl([
      ...via(p),
      '-H',
      'Transfer-Encoding: chunked',
      '--data-binary',
      'a body sent in chunks',
      `http://allowed.test:${o.port}/up`,
    ]);
    expect(r.stdout.toString()).toContain('body=a body sent in chunks');
    expect(o.seen[0]!.headers).toHaveProperty('transfer-encoding', 'chunked');
    expect(o.seen[0]!.headers).not.toHaveProperty('content-length');
  });

  test('answers framed by chunks, by the connection closing, to HEAD and 204 reach the client whole', async () => {
    const port = await scripted({
      '/chunked': [
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-From: origin\r\n\r\n5\r',
        '\nhello\r\n1',
        '0;ext=1\r\n',
        ', 16 bytes here!\r\n0\r',
        '\nTrailer-X: 1\r\n\r\n',
      ],
      '/close': ['HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil ', 'the end'],
      '/head': ['HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n'],
      '/empty': ['HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n'],
      '/continue': [
        'HTTP/1.1 100 Continue\r\n\r\n',
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      ],
    });
    const get = async (path: string, ...args: string[]) =>
      (
        await curl([...via(p), '-i', ...args, `http://allowed.test:${port}${path}`])
      ).stdout.toString();
    const p = await proxy();
    const chunked = await get('/chunked');
    expect(chunked).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(chunked).toContain('X-From: origin');
    expect(chunked.endsWith('\r\n\r\nhello, 16 bytes here!')).toBe(true);
    expect((await get('/close')).endsWith('\r\n\r\nuntil the end')).toBe(true);
    const head = await get('/head', '-I');
    expect(head).toContain('Content-Length: 999');
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    expect(await get('/empty')).toMatch(/^HTTP\/1\.1 204 No Content\r\n[^]*\r\n\r\n$/);
    expect((await get('/continue')).endsWith('\r\n\r\nok')).toBe(true);
  });

  test('an answer whose end cannot be told is a 502 saying why; one cut short is cut short', async () => {
    const p = await proxy();
    const port = await scripted({
      '/both': ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n'],
      '/two': ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd'],
      '/gzip': ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n'],
      '/fold': ['HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 0\r\n\r\n'],
      '/badchunk': ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
      '/cut': ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'],
    });
    const get = (path: string) =>
      curl([...via(p), '-w', '\n%{http_code}', `http://allowed.test:${port}${path}`]);
    for (const [path, reason] of [
      ['/both', 'both Transfer-Encoding and Content-Length'],
      ['/two', 'two different Content-Length headers'],
      ['/gzip', 'transfer coding "gzip" is not one a proxy can pass on'],
      ['/fold', 'malformed header line " folded"'],
    ]) {
      const r = await get(path!);
      expect(r.stdout.toString(), path).toContain(reason);
      expect(r.stdout.toString(), path).toMatch(/\n502$/);
    }
    // The head is out: the client sees its connection end early, as it would from the destination.
    expect((await get('/badchunk')).code).not.toBe(0);
    const cut = await get('/cut');
    expect(cut.code).toBe(18);
    expect(cut.stdout.toString()).toContain('only this');
  });

  test('a client that does not read holds the destination back, and then gets every byte in order', async () => {
    const [p, o] = [await proxy(), await origin()];
    const n = 48 * 1024 * 1024;
    const { sha } = bodyOf(n);
    const client = connect(p.port, '127.0.0.1');
    client.write(
      `GET http://allowed.test:${o.port}/bytes/${n} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    client.pause();
    // Nothing is read until the proxy's buffers stop growing.
    let last = -1;
    for (let still = 0; still < 5;) {
      await new Promise((r) => setTimeout(r, 100));
      still = p.bufferedBytes === last ? still + 1 : 0;
      last = p.bufferedBytes;
    }
    expect(p.bufferedBytes).toBeLessThan(8 * 1024 * 1024);
    const got = await readAll(client);
    const body = got.subarray(got.indexOf('\r\n\r\n') + 4);
    expect(body.length).toBe(n);
    expect(createHash('sha256').update(body).digest('hex')).toBe(sha);
  });

  test('a pipelined second request is answered after the first, each from its own destination', async () => {
    const p = await proxy();
    const [a, b] = [await origin(), await origin()];
    const c = await keepAliveClient(p.port);
    cleanups.push(() => c.close());
    const first = c.send(
      `GET http://allowed.test:${a.port}/bytes/300000 HTTP/1.1\r\nHost: x\r\n\r\n` +
        `GET http://127.0.0.1:${b.port}/bytes/17 HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect((await first).body).toBe(bodyOf(300000).bytes.toString('latin1'));
    expect((await c.send('')).body).toBe(bodyOf(17).bytes.toString('latin1'));
    expect(a.seen.map((r) => r.url)).toEqual(['/bytes/300000']);
    expect(b.seen.map((r) => r.url)).toEqual(['/bytes/17']);
  });
});

describe('limits', () => {
  test('a request head over the limit is answered 431', async () => {
    const p = await proxy({ maxHeaderBytes: 8 * 1024 });
    const r = await rawRequest(
      p.port,
      `GET http://allowed.test/ HTTP/1.1\r\nHost: allowed.test\r\nX-Big: ${'a'.repeat(16 * 1024)}\r\n\r\n`,
    );
    expect(r.status).toBe(431);
  });

  test('a head that never ends (slowloris) is answered 408 and the socket closed', async () => {
    const p = await proxy({ headerTimeoutMs: 300 });
    const { closed } = await halfOpen(p.port);
    expect(await closed).toMatch(/^HTTP\/1\.1 408/);
    expect(p.openSockets).toBe(0);
  });
});

describe('dispose', () => {
  test('closes the listener, every tunnel and every wait for a decision, leaving no socket', async () => {
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPServerWrap')
        .length;
    const o = await startTcpOrigin((s) => s.pipe(s));
    cleanups.push(() => o.close());
    const before = handles();
    let aborted: unknown = null;
    let asked = false;
    const p = await EgressProxy.listen({
      decide: (t, c, signal) => {
        if (hostKey(t.host) !== 'slow.test') return stubDecide(t, c, signal);
        asked = true;
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve({ ok: false, status: 403, message: 'gone' });
          }),
        );
      },
    });
    const tunnels = await Promise.all(
      [1, 2, 3].map(() => openTunnel(p.port, `allowed.test:${o.port}`)),
    );
    const waiting: Socket = connect(p.port, '127.0.0.1');
    waiting.write('CONNECT slow.test:443 HTTP/1.1\r\n\r\n');
    // The waiting CONNECT is read and its decision under way (on a busy machine, well after its
    // socket was accepted).
    while (p.openSockets < 7 || !asked) await new Promise((r) => setTimeout(r, 10));
    // Each client sees its connection end (and closes its own half, as any client does).
    const closed = [...tunnels.map((t) => t.socket), waiting].map((s) => {
      s.on('error', () => {});
      s.once('end', () => s.destroy());
      s.resume();
      return new Promise((r) => s.once('close', r));
    });
    await p.dispose();
    await Promise.all(closed);
    expect(p.openSockets).toBe(0);
    expect(String(aborted)).toContain('the proxy was closed');
    expect(handles()).toBe(before);
    const refused = await new Promise<string>((r) => {
      let code = '';
      const s = connect(p.port, '127.0.0.1');
      s.on('error', (e: NodeJS.ErrnoException) => (code = e.code ?? ''));
      s.on('connect', () => (code = 'connected'));
      s.on('close', () => r(code));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

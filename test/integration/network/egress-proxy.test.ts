import { createHash } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { EgressProxy, type Decide } from '../../../electron/host/network/egress-proxy';
import { MAX_HEADER_BYTES, RELAY_BUFFER_BYTES } from '../../../electron/host/network/constants';
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

/** `n` bytes of a xorshift stream from `seed`: a chunk moved or repeated anywhere shows. */
function noise(n: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const macrotask = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tunnel relay under any chunking', () => {
  // The download half reads the destination into one reused buffer and pauses while the client's
  // socket has not taken a write whole (DownloadRelay); the upload half is a pipe(). Whatever sizes
  // the two ends write in, whenever the client stops reading, every byte arrives once and in order
  // both ways, and a client that stops reading until everything upstream is full finds the proxy
  // holding no more than one relay buffer and a socket's chunk (more than the loopback sockets
  // hold is sent, so the proxy's own flow control is what stops the destination).
  test('every byte arrives once and in order both ways, and a stalled reader keeps the proxy bounded (property)', async () => {
    const p = await proxy();
    const MiB = 1024 * 1024;
    const plan = fc.record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      // The download's length and where the destination's writes split it; odd pieces wait a
      // macrotask first, so the proxy's reads see other boundaries too.
      total: fc.integer({ min: 8 * MiB, max: 12 * MiB }),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 16 }),
      // What the client sends up the tunnel while it downloads.
      up: fc.array(fc.integer({ min: 1, max: 96 * 1024 }), { maxLength: 6 }),
      // The read after which the client stops until nothing moves upstream, then short pauses.
      holdAfter: fc.integer({ min: 0, max: 20 }),
      pauses: fc.array(
        fc.record({ after: fc.integer({ min: 0, max: 60 }), ms: fc.integer({ min: 1, max: 20 }) }),
        { maxLength: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(plan, async ({ seed, total, cuts, up, holdAfter, pauses }) => {
        const downBytes = noise(total, seed);
        const upBytes = noise(
          up.reduce((n, c) => n + c, 0),
          seed ^ 0x5bd1e995,
        );
        const bounds = [...new Set([0, ...cuts.map((c) => Math.floor(c * total)), total])].sort(
          (x, y) => x - y,
        );
        let written = 0;
        let uploaded!: Promise<Buffer>;
        const o = await startTcpOrigin((s) => {
          uploaded = readAll(s);
          void (async () => {
            for (let i = 1; i < bounds.length; i++) {
              if (i % 2) await macrotask(0);
              const drained = s.write(downBytes.subarray(bounds[i - 1], bounds[i]));
              written = bounds[i]!;
              if (!drained) await new Promise((r) => s.once('drain', r));
            }
            await uploaded;
            s.end();
          })();
        });
        try {
          const t = await openTunnel(p.port, `allowed.test:${o.port}`);
          expect(t.status).toBe(200);
          let at = 0;
          for (const size of up) {
            t.socket.write(upBytes.subarray(at, at + size));
            at += size;
          }
          t.socket.end();
          /** Waits until the destination has written no more for a few polls: all is full. */
          const untilStill = async () => {
            let last = -1;
            for (let still = 0; still < 4;) {
              await macrotask(25);
              still = written === last ? still + 1 : 0;
              last = written;
            }
          };
          const chunks: Buffer[] = [];
          let reads = 0;
          let heldBuffered = 0;
          const pending = [...pauses].sort((x, y) => x.after - y.after);
          await new Promise<void>((resolve, reject) => {
            const stop = (until: Promise<unknown>) => {
              t.socket.pause();
              void until.then(() => t.socket.resume());
            };
            t.socket.on('data', (d: Buffer) => {
              chunks.push(d);
              reads++;
              if (reads === holdAfter + 1)
                stop(untilStill().then(() => (heldBuffered = p.bufferedBytes)));
              else if (pending[0] && pending[0].after <= reads)
                stop(macrotask(pending.shift()!.ms));
            });
            t.socket.once('end', resolve);
            t.socket.once('error', reject);
            t.socket.resume();
          });
          expect(Buffer.concat(chunks).equals(downBytes)).toBe(true);
          expect((await uploaded).equals(upBytes)).toBe(true);
          expect(heldBuffered).toBeLessThanOrEqual(RELAY_BUFFER_BYTES + 256 * 1024);
        } finally {
          await o.close();
        }
      }),
      { numRuns: 10 },
    );
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

  /** The proxy's answer to a GET of `path` at `port`, as the client's socket received it. */
  const rawAnswer = (p: EgressProxy, port: number, path: string) =>
    rawRequest(
      p.port,
      `GET http://allowed.test:${port}${path} HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`,
    );
  /**
   * The proxy's answer to a GET of `path` at `port`, read by node's HTTP client: its status, the
   * interim answers the client saw, the body, and whether the body reached its framed end (an
   * answer cut short, before or after its head, is not complete).
   */
  const answerOf = (p: EgressProxy, port: number, path: string) =>
    new Promise<{ status?: number; interim: number[]; body: string; complete: boolean }>(
      (resolve) => {
        const interim: number[] = [];
        const req = httpRequest({
          host: '127.0.0.1',
          port: p.port,
          path: `http://allowed.test:${port}${path}`,
          agent: false,
        });
        req.on('information', (i) => interim.push(i.statusCode));
        // Cut before its head was flushed: no answer at all.
        req.on('error', () => resolve({ interim, body: '', complete: false }));
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('latin1');
          res.on('data', (d: string) => (body += d));
          res.on('error', () => {});
          res.on('close', () =>
            resolve({ status: res.statusCode, interim, body, complete: res.complete }),
          );
        });
        req.end();
      },
    );
  /** The 502 body the proxy answers a malformed answer of the destination at `port` with. */
  const bad = (port: number, why: string) => `mewbo proxy: allowed.test:${port}: ${why}\n`;
  const ok = (headers: string, body = 'ok') =>
    `HTTP/1.1 200 OK\r\n${headers}${headers ? '\r\n' : ''}\r\n${body}`;

  test("the destination's hop-by-hop headers, and those its Connection header names, stop at the proxy", async () => {
    const p = await proxy();
    const port = await scripted({
      '/hop': [
        ok(
          [
            'Connection: keep-alive, X-Hop',
            'Keep-Alive: timeout=77',
            'Proxy-Connection: keep-alive',
            'Proxy-Authenticate: Basic realm=x',
            'TE: trailers',
            'Trailer: X-Sum',
            'Upgrade: h2c',
            'x-hop: named by Connection',
            'X-End:   kept  ',
            // Only Connection's value names headers to drop.
            'X-Refers: X-End',
            'Content-Length: 2',
          ].join('\r\n'),
        ),
      ],
    });
    const r = await rawAnswer(p, port, '/hop');
    const head = r.text.slice(0, r.text.indexOf('\r\n\r\n'));
    expect(r.status).toBe(200);
    expect(head).toContain('\r\nX-End: kept\r\n');
    expect(head).toContain('\r\nX-Refers: X-End\r\n');
    expect(r.text.endsWith('\r\n\r\nok')).toBe(true);
    for (const gone of [
      /keep-alive/i,
      /timeout=77/,
      /^proxy-/im,
      /^te:/im,
      /^trailer:/im,
      /upgrade/i,
      /hop/i,
    ])
      expect(head).not.toMatch(gone);
  });

  test('a status line or header line that is not HTTP/1.x, or a length that is no number, is a 502 saying which', async () => {
    const p = await proxy();
    const long = 'X'.repeat(150);
    const answers: Record<string, [string, string]> = {
      '/h2': [
        'HTTP/2 200 OK\r\n\r\n',
        `the destination's status line "HTTP/2 200 OK" is not HTTP/1.x`,
      ],
      '/prefix': [
        'XHTTP/1.1 200 OK\r\n\r\n',
        `the destination's status line "XHTTP/1.1 200 OK" is not HTTP/1.x`,
      ],
      '/glued': [
        'HTTP/1.1 200OK\r\n\r\n',
        `the destination's status line "HTTP/1.1 200OK" is not HTTP/1.x`,
      ],
      '/nocode': [
        'HTTP/1.1 20 OK\r\n\r\n',
        `the destination's status line "HTTP/1.1 20 OK" is not HTTP/1.x`,
      ],
      '/tab': [
        'HTTP/1.1\t200 OK\r\n\r\n',
        `the destination's status line "HTTP/1.1\t200 OK" is not HTTP/1.x`,
      ],
      '/long': [
        `${long}\r\n\r\n`,
        `the destination's status line "${long.slice(0, 100)}" is not HTTP/1.x`,
      ],
      '/nocolon': [
        ok('NoColon\r\nContent-Length: 2'),
        'the destination sent a malformed header line "NoColon"',
      ],
      '/noname': [
        ok(': x\r\nContent-Length: 2'),
        'the destination sent a malformed header line ": x"',
      ],
      '/badname': [ok('Bad@Name: 1'), 'the destination sent a malformed header line "Bad@Name: 1"'],
      '/longline': [
        ok(`${long}`),
        `the destination sent a malformed header line "${long.slice(0, 100)}"`,
      ],
      '/nan': [ok('Content-Length: 2x'), `the destination's Content-Length "2x" is not a number`],
      '/neg': [ok('Content-Length: -2'), `the destination's Content-Length "-2" is not a number`],
      '/huge': [
        ok('Content-Length: 1234567890123456'),
        `the destination's Content-Length "1234567890123456" is not a number`,
      ],
      '/codings': [
        ok('Transfer-Encoding: gzip, chunked'),
        `the destination's transfer coding "gzip, chunked" is not one a proxy can pass on`,
      ],
      '/twice': [
        ok('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked'),
        `the destination's transfer coding "chunked, chunked" is not one a proxy can pass on`,
      ],
      '/both-head': [
        ok('Transfer-Encoding: chunked\r\nContent-Length: 2'),
        'the destination sent both Transfer-Encoding and Content-Length (its end is ambiguous)',
      ],
      '/ctl': [
        ok('X-Bad: a\x01b\r\nContent-Length: 2'),
        `the destination's answer cannot be passed on: Invalid character in header content ["X-Bad"]`,
      ],
      '/close-silent': ['', 'the destination closed the connection without answering'],
    };
    const port = await scripted(
      Object.fromEntries(Object.entries(answers).map(([k, [a]]) => [k, a ? [a] : []])),
    );
    for (const [path, [, why]] of Object.entries(answers)) {
      const r = await rawAnswer(p, port, path);
      expect(r.status, path).toBe(502);
      // Its reason too: a head that failed to write half-way (/ctl) left "OK" behind in it.
      expect(r.text.slice(0, r.text.indexOf('\r\n')), path).toBe('HTTP/1.1 502 Bad Gateway');
      expect(r.text.slice(r.text.indexOf('\r\n\r\n') + 4), path).toBe(bad(port, why));
    }
  });

  test('a status line without a reason, an HTTP/1.0 one, a repeated equal length and a chunked coding in any case are passed on', async () => {
    const p = await proxy();
    const port = await scripted({
      '/noreason': ['HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok'],
      '/http10': ['HTTP/1.0 299 Fine By Me\r\nContent-Length: 2\r\n\r\nok'],
      '/same': [ok('Content-Length: 2\r\ncontent-length:2')],
      '/coding': [ok('Transfer-Encoding:  Chunked ', '2\r\nok\r\n0\r\n\r\n')],
    });
    expect((await rawAnswer(p, port, '/noreason')).text).toMatch(
      /^HTTP\/1\.1 200 \r\n[^]*\r\n\r\nok$/,
    );
    expect((await rawAnswer(p, port, '/http10')).text).toMatch(
      /^HTTP\/1\.1 299 Fine By Me\r\n[^]*\r\n\r\nok$/,
    );
    expect((await rawAnswer(p, port, '/same')).text).toMatch(
      /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok$/,
    );
    const r = await curl([...via(p), `http://allowed.test:${port}/coding`]);
    expect([r.code, r.stdout.toString()]).toEqual([0, 'ok']);
  });

  test('a head split anywhere across reads, up to the size limit, is read whole; one past the limit is a 502', async () => {
    const p = await proxy();
    const start = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Pad: ';
    const padded = (n: number) => `${start}${'a'.repeat(n - start.length)}\r\n\r\nok`;
    const port = await scripted({
      '/split1': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r', '\n\r\nok'],
      '/split2': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n', '\r\nok'],
      '/split3': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r', '\nok'],
      '/split4': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n', 'ok'],
      '/max': [padded(MAX_HEADER_BYTES)],
      // The limit's whole head, its blank line not yet come: kept, not refused.
      '/max-split': [padded(MAX_HEADER_BYTES).slice(0, -6), '\r\n\r\nok'],
      '/over': [padded(MAX_HEADER_BYTES + 1)],
      '/pieces': [
        'HTTP/1.1 200 OK\r\n',
        ...Array.from({ length: 20 }, (_, i) => `X-Pad-${i}: ${'b'.repeat(1000)}\r\n`),
        '\r\nok',
      ],
    });
    for (const path of ['/split1', '/split2', '/split3', '/split4', '/max', '/max-split']) {
      const r = await rawAnswer(p, port, path);
      expect(r.status, path).toBe(200);
      expect(r.text.endsWith('\r\n\r\nok'), path).toBe(true);
    }
    for (const path of ['/over', '/pieces']) {
      const r = await rawAnswer(p, port, path);
      expect(r.status, path).toBe(502);
      expect(r.text, path).toContain(
        bad(port, `the destination's answer head is longer than ${MAX_HEADER_BYTES} bytes`),
      );
    }
  });

  test('a body is passed on to its framed end and not a byte further', async () => {
    const p = await proxy();
    const port = await scripted({
      '/extra': [ok('Content-Length: 2', 'okEXTRA')],
      '/later': [ok('Content-Length: 2', 'o'), 'kLATER', 'MORE'],
      '/chunked-extra': [ok('Transfer-Encoding: chunked', '2\r\nok\r\n0\r\n\r\nEXTRA')],
      '/early': ['HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n', ok('Content-Length: 2')],
      // An interim answer has no body: what it says of one is not read.
      '/early-framing': [
        'HTTP/1.1 103 Early Hints\r\nTransfer-Encoding: gzip\r\n\r\n',
        ok('Content-Length: 2'),
      ],
      '/early-split': ['HTTP/1.1 103 Early Hints\r\n', '\r\n', ok('Content-Length: 2')],
    });
    for (const path of [
      '/extra',
      '/later',
      '/chunked-extra',
      '/early',
      '/early-framing',
      '/early-split',
    ])
      expect(await answerOf(p, port, path), path).toEqual({
        status: 200,
        interim: [],
        body: 'ok',
        complete: true,
      });
  });

  test('chunk sizes in hex of up to 12 digits, with extensions, are read; a malformed chunk frame cuts the answer', async () => {
    const p = await proxy();
    const chunked = (body: string) => [ok('Transfer-Encoding: chunked', body)];
    const port = await scripted({
      '/sizes': chunked(
        'A ;x=1\r\n0123456789\r\n000000000002\t;y\r\nab\r\nf\r\n, fifteen bytes\r\n0\r\n\r\n',
      ),
      // A size line of 4,096 bytes, its CRLF included, is the longest read.
      '/ext-max': chunked(`1;${'x'.repeat(4092)}\r\nx\r\n0\r\n\r\n`),
      '/prefixed-size': chunked('x2\r\nok\r\n0\r\n\r\n'),
      '/suffixed-size': chunked('2 x\r\nok\r\n0\r\n\r\n'),
      '/trailers': chunked('2\r\nok\r\n0\r\nX-Sum: 1\r\nX-Other: 2\r\n\r\n'),
      '/no-crlf': chunked('2\r\nokXY0\r\n\r\n'),
      '/cr-cr': chunked('2\r\nok\r\r0\r\n\r\n'),
      '/lf-lf': chunked('2\r\nok\n\n0\r\n\r\n'),
      '/lf-size': chunked('1;\nx\r\n0\r\n\r\n'),
      '/long-ext': chunked(`1;${'x'.repeat(4093)}\r\nx\r\n0\r\n\r\n`),
      '/13-digits': chunked('0000000000002\r\nab\r\n0\r\n\r\n'),
      '/cut-chunk': chunked('5\r\nhel'),
    });
    expect(await answerOf(p, port, '/sizes')).toMatchObject({
      body: '0123456789ab, fifteen bytes',
      complete: true,
    });
    expect(await answerOf(p, port, '/ext-max')).toMatchObject({ body: 'x', complete: true });
    expect(await answerOf(p, port, '/trailers')).toMatchObject({ body: 'ok', complete: true });
    for (const path of [
      '/no-crlf',
      '/cr-cr',
      '/lf-lf',
      '/lf-size',
      '/long-ext',
      '/13-digits',
      '/prefixed-size',
      '/suffixed-size',
      '/cut-chunk',
    ])
      expect(await answerOf(p, port, path), path).toMatchObject({ complete: false });
  });

  test('an answer without a body (304, 204, Content-Length: 0) ends at its head: the next pipelined request is answered', async () => {
    const p = await proxy();
    const port = await scripted({
      '/304': ['HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n'],
      '/204': ['HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n'],
      '/zero': [ok('Content-Length: 0', '')],
      '/after': [ok('Content-Length: 5', 'after')],
    });
    const client = connect(p.port, '127.0.0.1');
    cleanups.push(() => void client.destroy());
    let text = '';
    const all = new Promise<void>((resolve) =>
      client.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.endsWith('\r\n\r\nafter')) resolve();
      }),
    );
    const get = (path: string) =>
      `GET http://allowed.test:${port}${path} HTTP/1.1\r\nHost: allowed.test\r\n\r\n`;
    client.write(get('/304') + get('/204') + get('/zero') + get('/after'));
    await all;
    expect(text).toMatch(
      /^HTTP\/1\.1 304 Not Modified\r\n[^]*\r\n\r\nHTTP\/1\.1 204 No Content\r\n[^]*\r\n\r\nHTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nHTTP\/1\.1 200 OK\r\n/,
    );
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

import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { addressClassifier } from '../../../electron/host/network/address-kind';
import { NetworkService } from '../../../electron/host/network/network-service';
import { fakeResolver } from '../../helpers/net-fixtures';
import { keepAliveClient } from './raw-http';

// A second request on a kept-alive proxy connection, naming a host the policy denies. Two names
// on one address (a CDN, a shared host) are told apart by the Host header: a relay that judges a
// connection's first request and then passes its bytes on lets the next request reach the
// denied name through the allowed one's connection. The control is such a relay; the session's
// egress proxy judges every request, so the denied name gets a 403 and its site nothing.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ADDRESS = '127.0.0.2';
const resolver = fakeResolver({ 'allowed.test': ADDRESS, 'denied.test': ADDRESS });

/** One server for both names (virtual hosts): denied.test's site keeps whatever is posted to it. */
async function sharedHost(): Promise<{ port: number; droppedAtDenied: string[] }> {
  const droppedAtDenied: string[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const site = (req.headers.host ?? '').split(':')[0];
      if (site === 'denied.test') droppedAtDenied.push(body);
      const text = `${site} got ${req.method}`;
      res.writeHead(200, { 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, ADDRESS, () => r()));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return { port: (server.address() as { port: number }).port, droppedAtDenied };
}

/**
 * The unprotected path: judges the first request head of a connection by its URL's host, then
 * relays the connection's bytes both ways to that destination, unread.
 */
async function firstRequestRelay(): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    let head = '';
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      client.off('data', onData);
      const m = /^(\S+) http:\/\/([^/:]+):(\d+)(\S*) (HTTP\/1\.1)\r\n/.exec(head)!;
      if (m[2] !== 'allowed.test') return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      const upstream = connect(Number(m[3]), ADDRESS, () => {
        upstream.write(`${m[1]} ${m[4] || '/'} ${m[5]}\r\n${head.slice(m[0].length)}`);
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
    };
    client.on('data', onData);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return (server.address() as { port: number }).port;
}

/** The session's egress proxy with its real policy: only allowed.test is on the allowlist. */
async function sessionProxy(): Promise<number> {
  const config = parseConfig({ sandbox: { network: { allow: ['allowed.test'] } } });
  const net = new NetworkService({
    config: () => config,
    configFile: '/nonexistent/app.json',
    policy: async () => ({ rules: [], mode: 'auto', canAsk: false }),
    resolver,
    addressKind: (a) => (a === ADDRESS ? 'public' : addressClassifier()(a)),
  }).forSession('s_keepalive', { tokenPrefix: 'keepalive.', running: () => true }, () => {});
  cleanups.push(() => net.dispose());
  return (await net.forSpawn('/work/project'))!.proxyPort;
}

const request = (method: string, host: string, port: number, body = '') =>
  `${method} http://${host}:${port}/ HTTP/1.1\r\nHost: ${host}:${port}\r\n` +
  `Content-Length: ${body.length}\r\n\r\n${body}`;

describe('a second request on a kept-alive proxy connection, to a denied host', () => {
  test('a relay judging only the first request delivers it; the session proxy answers 403 and the denied site gets nothing', async () => {
    const site = await sharedHost();

    const relay = await keepAliveClient(await firstRequestRelay());
    cleanups.push(() => relay.close());
    expect((await relay.send(request('GET', 'allowed.test', site.port))).body).toBe(
      'allowed.test got GET',
    );
    const leaked = await relay.send(request('POST', 'denied.test', site.port, 'SECRET-1'));
    expect(leaked.body).toBe('denied.test got POST');
    expect(site.droppedAtDenied).toEqual(['SECRET-1']);

    const proxy = await keepAliveClient(await sessionProxy());
    cleanups.push(() => proxy.close());
    expect((await proxy.send(request('GET', 'allowed.test', site.port))).body).toBe(
      'allowed.test got GET',
    );
    const refused = await proxy.send(request('POST', 'denied.test', site.port, 'SECRET-2'));
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('denied.test');
    // The URL names the allowed host, the Host header the denied one: the URL decides.
    const smuggled = await proxy.send(
      `POST http://allowed.test:${site.port}/ HTTP/1.1\r\nHost: denied.test:${site.port}\r\n` +
        'Content-Length: 8\r\n\r\nSECRET-3',
    );
    expect(smuggled.body).toBe('allowed.test got POST');
    expect(site.droppedAtDenied).toEqual(['SECRET-1']);
  });
});

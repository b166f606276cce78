import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { addressClassifier, type AddressKind } from '../../../electron/host/network/address-kind';
import { EgressProxy } from '../../../electron/host/network/egress-proxy';
import { NetworkService } from '../../../electron/host/network/network-service';
import type { Resolver } from '../../../electron/host/network/resolver';
import { Router, type HandlerMap } from '../../../electron/host/rpc/router';
import { WebServer } from '../../../electron/web/web-server';
import { fakeResolver, openTunnel, readAll } from '../../helpers/net-fixtures';
import { tempDir } from '../../helpers/temp';
import { rawRequest } from './raw-http';

// Attacks on the egress proxy itself, each first shown working through a naive proxy (the same
// proxy machinery with a decision that trusts the request: it resolves the name it is given and
// connects), so none can pass vacuously. The app is this process: its web host and a private
// service are real listeners here.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The unprotected path: connects wherever the request says, as a proxy without a policy would. */
async function naiveProxy(resolver: Resolver): Promise<EgressProxy> {
  const p = await EgressProxy.listen({
    decide: async (t) => ({
      ok: true,
      address: t.host.kind === 'ip' ? t.host.address : (await resolver.lookup(t.host.name))[0]!,
    }),
  });
  cleanups.push(() => p.dispose());
  return p;
}

/** The session's proxy with its real policy; `allow` is the user's sandbox.network.allow. */
async function sessionProxy(
  resolver: Resolver,
  allow: string[],
  addressKind: (a: string) => AddressKind = addressClassifier(),
): Promise<number> {
  const config = parseConfig({ sandbox: { network: { allow } } });
  const net = new NetworkService({
    config: () => config,
    configFile: '/nonexistent/app.json',
    policy: async () => ({ rules: [], mode: 'auto', canAsk: false }),
    resolver,
    addressKind,
  }).forSession('s_attack', { tokenPrefix: 'attack.', running: () => true }, () => {});
  cleanups.push(() => net.dispose());
  return (await net.forSpawn('/work/project'))!.proxyPort;
}

async function appWebHost(): Promise<{ port: number; page: string }> {
  const t = tempDir('mewbo-attack-web-');
  const page = `MEWBO-APP-PAGE-${randomBytes(6).toString('hex')}`;
  writeFileSync(join(t.dir, 'index.html'), `<html>${page}</html>`);
  const web = new WebServer({
    router: new Router({} as HandlerMap, {}),
    staticDir: t.dir,
    secret: randomBytes(32),
  });
  const { port } = await web.listen();
  cleanups.push(async () => {
    await web.dispose();
    t.cleanup();
  });
  return { port, page };
}

/** A service that hands its secret to whoever connects. */
async function secretService(host: string): Promise<{ port: number; secret: string }> {
  const secret = `SERVICE-SECRET-${randomBytes(6).toString('hex')}`;
  const open = new Set<Duplex>();
  const server = createServer((c) => {
    open.add(c);
    c.on('close', () => open.delete(c));
    c.end(secret);
  }).listen(0, host);
  await new Promise((r) => server.once('listening', r));
  cleanups.push(() => {
    for (const c of open) c.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return { port: (server.address() as { port: number }).port, secret };
}

describe('attacks on the egress proxy', () => {
  test("CONNECT to the app's web host port: a naive proxy reaches its page; the session's proxy refuses, by address and by name", async () => {
    const web = await appWebHost();
    const resolver = fakeResolver({ 'localhost.test': '127.0.0.1' });
    const naive = await naiveProxy(resolver);
    const t = await openTunnel(naive.port, `127.0.0.1:${web.port}`);
    t.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect((await readAll(t.socket)).toString()).toContain(web.page);

    const port = await sessionProxy(resolver, ['localhost.test']);
    for (const authority of [
      `127.0.0.1:${web.port}`,
      `localhost:${web.port}`,
      `[::ffff:127.0.0.1]:${web.port}`,
      `2130706433:${web.port}`,
      `localhost.test:${web.port}`,
    ]) {
      const r = await openTunnel(port, authority);
      expect(r.status, authority).toBe(403);
      expect(r.head).toContain("that port is one of the app's own listeners");
      expect(r.head).not.toContain(web.page);
      r.socket.destroy();
    }
    const plain = await rawRequest(
      port,
      `GET http://127.0.0.1:${web.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(plain.status).toBe(403);
    expect(plain.text).not.toContain(web.page);
  });

  test('DNS rebinding: a name allowed while it pointed outside, then resolving to 127.0.0.1, reaches an app service through a naive proxy and nothing through the session proxy', async () => {
    const service = await secretService('127.0.0.1');
    const table: Record<string, string> = { 'rebind.test': '127.0.0.2' };
    const resolver: Resolver = { lookup: async (n) => [table[n]!] };
    // The name is allowed; now its owner points it inward.
    table['rebind.test'] = '127.0.0.1';
    const naive = await naiveProxy(resolver);
    const t = await openTunnel(naive.port, `rebind.test:${service.port}`);
    expect((await readAll(t.socket)).toString()).toBe(service.secret);

    const port = await sessionProxy(resolver, ['rebind.test']);
    const r = await openTunnel(port, `rebind.test:${service.port}`);
    expect(r.status).toBe(403);
    expect(r.head).toContain("one of the app's own listeners");
    r.socket.destroy();
    const plain = await rawRequest(
      port,
      `GET http://rebind.test:${service.port}/ HTTP/1.1\r\nHost: rebind.test\r\nConnection: close\r\n\r\n`,
    );
    expect(plain.status).toBe(403);
    expect(plain.text).not.toContain(service.secret);
  });

  test('a Host header naming the app: a proxy routing by Host reaches it; the session proxy refuses the CONNECT and rewrites the header of a plain request', async () => {
    const service = await secretService('127.0.0.1');
    const origin = await secretService('127.0.0.2');
    const resolver = fakeResolver({ 'allowed.test': '127.0.0.2' });
    // A proxy that believes the Host header rather than the request line.
    const open = new Set<Duplex>();
    const byHost = createHttpServer().on('connect', (req, client: Duplex) => {
      const [host, p] = (req.headers.host ?? '').split(':');
      const up = connect(Number(p), host!, () => {
        open.add(up).add(client);
        client.write('HTTP/1.1 200 OK\r\n\r\n');
        up.pipe(client);
        client.pipe(up);
      });
    });
    await new Promise<void>((r) => byHost.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => {
      for (const sock of open) sock.destroy();
      return new Promise<void>((r) => byHost.close(() => r()));
    });
    const smuggled = await rawRequest(
      (byHost.address() as { port: number }).port,
      `CONNECT allowed.test:${service.port} HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\n\r\n`,
    );
    expect(smuggled.text).toContain(service.secret);

    const port = await sessionProxy(resolver, ['allowed.test'], (a) =>
      a === '127.0.0.2' ? 'public' : addressClassifier()(a),
    );
    const refused = await rawRequest(
      port,
      `CONNECT allowed.test:${origin.port} HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\n\r\n`,
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('names another destination than the CONNECT line');
    expect(refused.text).not.toContain(service.secret);
    // A plain request goes where its URL says, whatever its Host header claims.
    const plain = await rawRequest(
      port,
      `GET http://allowed.test:${origin.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(plain.text).not.toContain(service.secret);
  });

  test('a private address: a naive proxy connects to it; the session proxy refuses it named directly, and behind an allowed name', async () => {
    // 127.0.0.3 plays a host of the private network (the one address classified so here).
    const lan = await secretService('127.0.0.3');
    const kind = (a: string): AddressKind =>
      a === '127.0.0.3' ? 'private' : addressClassifier()(a);
    const resolver = fakeResolver({ 'intranet.test': '127.0.0.3' });
    const naive = await naiveProxy(resolver);
    const t = await openTunnel(naive.port, `127.0.0.3:${lan.port}`);
    expect((await readAll(t.socket)).toString()).toBe(lan.secret);

    const port = await sessionProxy(resolver, ['intranet.test', '*'], kind);
    const direct = await openTunnel(port, `127.0.0.3:${lan.port}`);
    expect(direct.status).toBe(403);
    expect(direct.head).toContain('127.0.0.3 is not allowed');
    direct.socket.destroy();
    const named = await openTunnel(port, `intranet.test:${lan.port}`);
    expect(named.status).toBe(403);
    expect(named.head).toContain('intranet.test resolves to a private address');
    expect(named.head).not.toContain(lan.secret);
    named.socket.destroy();
    // Named as itself by the user, it is reachable: the refusal is the policy, not a broken path.
    const allowed = await sessionProxy(resolver, ['127.0.0.3'], kind);
    const ok = await openTunnel(allowed, `127.0.0.3:${lan.port}`);
    expect((await readAll(ok.socket)).toString()).toBe(lan.secret);
  });
});

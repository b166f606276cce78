import { createHash } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { AppConfig, PermissionMode } from '../../../electron/host/config/schema';
import { addressClassifier } from '../../../electron/host/network/address-kind';
import { NetworkService } from '../../../electron/host/network/network-service';
import type {
  AskAnswer,
  NetworkAsk,
  SessionNetwork,
} from '../../../electron/host/network/session-network';
import { hostKey } from '../../../electron/host/network/host-name';
import type { LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import {
  bodyOf,
  childListener,
  curl,
  fakeResolver,
  openTunnel,
  readAll,
  startHttpOrigin,
} from '../../helpers/net-fixtures';

// One session's network with its real policy: real curl processes carrying the session's shell
// token connect to the session's proxy. The internet is stood in for by a server on 127.0.0.2
// (the one address the tests classify as public); 127.0.0.1 keeps its real meaning, and the test
// process plays the app (its own listeners are the app's).

const ROOT = '/work/project';
const PREFIX = 'abc123.';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const real = addressClassifier();
const resolver = fakeResolver({
  'allowed.test': '127.0.0.2',
  'other.test': '127.0.0.2',
  'rebind.test': '127.0.0.1',
  'inward.test': '10.0.0.1',
  'both.test': ['10.0.0.1', '127.0.0.2'],
});
const rule = (kind: RuleKind, raw: string): LoadedRule => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return { kind, rule: p.rule, scope: 'user', file: '/home/configs/app.json', line: 4 };
};

interface World {
  net: SessionNetwork;
  port: number;
  refusals: { shellId: string | null; reason: string }[];
  asks: NetworkAsk[];
  /** curl as a process of shell `shellId` of this session. */
  curl(args: string[], shellId?: string): ReturnType<typeof curl>;
}

async function world(
  opts: {
    config?: Record<string, unknown>;
    rules?: LoadedRule[];
    mode?: PermissionMode;
    canAsk?: boolean;
    answer?: (ask: NetworkAsk, signal: AbortSignal) => Promise<AskAnswer>;
    prefix?: string;
    askTimeoutMs?: number;
  } = {},
): Promise<World> {
  const config: AppConfig = parseConfig(opts.config ?? {});
  const refusals: World['refusals'] = [];
  const asks: NetworkAsk[] = [];
  const service = new NetworkService({
    config: () => config,
    configFile: '/nonexistent/app.json',
    policy: async () => ({
      rules: opts.rules ?? [],
      mode: opts.mode ?? 'auto',
      canAsk: opts.canAsk ?? false,
    }),
    ask: async (_session, request, signal) => {
      asks.push(request);
      return opts.answer ? opts.answer(request, signal) : { allow: false, reason: 'no answer' };
    },
    resolver,
    ...(opts.askTimeoutMs ? { askTimeoutMs: opts.askTimeoutMs } : {}),
    addressKind: (a) => (a === '127.0.0.2' ? 'public' : real(a)),
  });
  const prefix = opts.prefix ?? PREFIX;
  const net = service.forSession(
    's_net',
    { tokenPrefix: prefix, running: () => true },
    (shellId, reason) => refusals.push({ shellId, reason }),
  );
  cleanups.push(() => net.dispose());
  const { proxyPort } = (await net.forSpawn(ROOT))!;
  return {
    net,
    port: proxyPort,
    refusals,
    asks,
    curl: (args, shellId = 'run_1') =>
      curl(['-x', `http://127.0.0.1:${proxyPort}`, ...args], {
        MEWBO_SHELL_TOKEN: `${prefix}${shellId}.`,
      }),
  };
}

async function internet() {
  const o = await startHttpOrigin('127.0.0.2');
  cleanups.push(() => o.close());
  return o;
}

describe('names: allowed, refused, asked', () => {
  test('an allowed domain downloads through the proxy; an unlisted one is refused with a 403 naming it and how to allow it', async () => {
    const o = await internet();
    const w = await world({ config: { sandbox: { network: { allow: ['allowed.test'] } } } });
    const ok = await w.curl([`http://allowed.test:${o.port}/bytes/100000`]);
    expect(createHash('sha256').update(ok.stdout).digest('hex')).toBe(bodyOf(100000).sha);
    const no = await w.curl(['-w', '\n%{http_code}', `http://other.test:${o.port}/x`], 'shell_4');
    const [, body, code] = /^(.*)\n\n(\d+)$/.exec(no.stdout.toString())!;
    expect(code).toBe('403');
    expect(body).toBe(
      `connection to other.test:${o.port} refused: other.test is not allowed and auto mode does not ask. To allow it, add "Network(other.test)" to permissions.allow (configs/app.json, or the project's .mewbo/settings.json) or "other.test" to sandbox.network.allow in configs/app.json.`,
    );
    // The shell that made the connection is told, found from the socket's owner.
    expect(w.refusals).toEqual([{ shellId: 'shell_4', reason: body }]);
    // A name that is not allowed is never looked up (the lookup would carry it out).
    expect(resolver.asked).not.toContain('other.test');
  });

  test("the project's own list applies to its root only", async () => {
    const o = await internet();
    const w = await world({
      config: {
        projects: {
          mine: { path: ROOT, network_allow: ['*.allowed.test', 'allowed.test'] },
          theirs: { path: '/elsewhere', network_allow: ['other.test'] },
        },
      },
    });
    expect((await w.curl([`http://allowed.test:${o.port}/a`])).stdout.toString()).toContain(
      'origin saw GET /a',
    );
    expect(
      (await w.curl(['-w', '%{http_code}', `http://other.test:${o.port}/a`])).stdout.toString(),
    ).toMatch(/403$/);
  });

  test('a deny rule beats the allowlist', async () => {
    const o = await internet();
    const w = await world({
      config: { sandbox: { network: { allow: ['allowed.test'] } } },
      rules: [rule('allow', 'Network(allowed.test)'), rule('deny', 'Network(allowed.test)')],
    });
    const r = await w.curl([`http://allowed.test:${o.port}/x`]);
    expect(r.stdout.toString()).toContain(
      'the rule deny "Network(allowed.test)" (/home/configs/app.json:4) blocks it',
    );
  });

  test('in ask mode connections to one destination wait on one approval; allowed once, the next one asks again', async () => {
    const o = await internet();
    let release!: (a: AskAnswer) => void;
    const decided = new Promise<AskAnswer>((r) => (release = r));
    const w = await world({
      mode: 'ask',
      canAsk: true,
      answer: () =>
        w.asks.length === 1 ? decided : Promise.resolve({ allow: false, reason: 'no answer' }),
    });
    const both = Promise.all([
      w.curl([`http://allowed.test:${o.port}/one`], 'run_2'),
      w.curl(['-p', `http://allowed.test:${o.port}/two`], 'run_2'),
    ]);
    while (w.net.waiting < 2) await new Promise((r) => setTimeout(r, 20));
    expect(w.asks).toHaveLength(1);
    expect(w.asks[0]).toMatchObject({ port: o.port, shellId: 'run_2' });
    expect(hostKey(w.asks[0]!.host)).toBe('allowed.test');
    release({ allow: true });
    const [one, two] = await both;
    expect(one.stdout.toString()).toContain('GET /one');
    expect(two.stdout.toString()).toContain('GET /two');
    expect(w.asks).toHaveLength(1);
    const again = await w.curl(['-w', '%{http_code}', `http://allowed.test:${o.port}/three`]);
    expect(w.asks).toHaveLength(2);
    expect(again.stdout.toString()).toMatch(/no answer\. To allow it.*403$/s);
  });

  test('a connection that closes while it waits ends the ask (the card is withdrawn)', async () => {
    const seen: { signal?: AbortSignal } = {};
    const w = await world({
      mode: 'ask',
      canAsk: true,
      answer: (_a, signal) =>
        new Promise((resolve) => {
          seen.signal = signal;
          signal.addEventListener('abort', () => resolve({ allow: false, reason: 'withdrawn' }));
        }),
    });
    const socket = connect(w.port, '127.0.0.1');
    socket.write('CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n');
    while (!seen.signal) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    const signal = seen.signal;
    await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    expect(String(signal.reason)).toContain('the connection closed before anyone decided');
  });

  test('nobody deciding within the ask timeout refuses the connection and says so', async () => {
    const o = await internet();
    const w = await world({
      mode: 'ask',
      canAsk: true,
      askTimeoutMs: 1000,
      answer: (_a, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () =>
            resolve({ allow: false, reason: String((signal.reason as Error).message) }),
          ),
        ),
    });
    const r = await w.curl([`http://allowed.test:${o.port}/x`]);
    expect(r.stdout.toString()).toContain(
      `connection to allowed.test:${o.port} refused: nobody decided within 1 s. To allow it`,
    );
    expect(w.refusals).toHaveLength(1);
  });
});

describe('addresses and local ports', () => {
  test('an allowed name that resolves to loopback reaches no app listener (DNS rebinding)', async () => {
    const app = createServer((c) => c.end('APP SECRET')).listen(0, '127.0.0.1');
    await new Promise((r) => app.once('listening', r));
    cleanups.push(() => new Promise<void>((r) => app.close(() => r())));
    const appPort = (app.address() as { port: number }).port;
    const w = await world({
      config: { sandbox: { network: { allow: ['rebind.test'], local_ports: [appPort] } } },
    });
    const t = await openTunnel(w.port, `rebind.test:${appPort}`);
    expect(t.status).toBe(403);
    expect(t.head).toContain("that port is one of the app's own listeners");
    t.socket.destroy();
    // The literal address and localhost are refused the same way, local_ports or not.
    for (const authority of [
      `127.0.0.1:${appPort}`,
      `localhost:${appPort}`,
      `[::ffff:127.0.0.1]:${appPort}`,
    ]) {
      const l = await openTunnel(w.port, authority);
      expect(l.status).toBe(403);
      l.socket.destroy();
    }
  });

  test("a port this session's process listens on is reachable; another session's is not", async () => {
    const mine = await childListener(`${PREFIX}shell_1.`, 'MINE');
    const theirs = await childListener('zzz999.shell_1.', 'THEIRS');
    cleanups.push(
      () => mine.kill(),
      () => theirs.kill(),
    );
    const w = await world({ config: { sandbox: { network: { allow: ['rebind.test'] } } } });
    for (const authority of [
      `localhost:${mine.port}`,
      `127.0.0.1:${mine.port}`,
      `rebind.test:${mine.port}`,
    ]) {
      const t = await openTunnel(w.port, authority);
      expect(t.status).toBe(200);
      expect((await readAll(t.socket)).toString()).toBe('MINE');
    }
    const other = await openTunnel(w.port, `localhost:${theirs.port}`);
    expect(other.status).toBe(403);
    expect(other.head).toContain(
      `no process of this session listens on port ${theirs.port}, and it is not in sandbox.network.local_ports`,
    );
    other.socket.destroy();
    // What a process spawned now may connect to directly: the proxy and this session's listener.
    const spawn = (await w.net.forSpawn(ROOT))!;
    expect(spawn.grant.connectPorts).toContain(w.port);
    expect(spawn.grant.connectPorts).toContain(mine.port);
    expect(spawn.grant.connectPorts).not.toContain(theirs.port);
  });

  test('a port the user lists is reachable, unless the app holds it', async () => {
    const listed = await childListener('nobody.', 'LISTED');
    cleanups.push(() => listed.kill());
    const app = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => app.once('listening', r));
    cleanups.push(() => new Promise<void>((r) => app.close(() => r())));
    const appPort = (app.address() as { port: number }).port;
    const w = await world({
      config: { sandbox: { network: { local_ports: [listed.port, appPort] } } },
    });
    const t = await openTunnel(w.port, `localhost:${listed.port}`);
    expect((await readAll(t.socket)).toString()).toBe('LISTED');
    const spawn = (await w.net.forSpawn(ROOT))!;
    expect(spawn.grant.connectPorts).toEqual(expect.arrayContaining([w.port, listed.port]));
    expect(spawn.grant.connectPorts).not.toContain(appPort);
  });

  test('an allowed name resolving to a private address is refused; a public address of the same name is used', async () => {
    const o = await internet();
    const w = await world({
      config: { sandbox: { network: { allow: ['inward.test', 'both.test'] } } },
    });
    const inward = await w.curl([`http://inward.test:${o.port}/x`]);
    expect(inward.stdout.toString()).toContain(
      `connection to inward.test:${o.port} (10.0.0.1) refused: inward.test resolves to a private address`,
    );
    const both = await w.curl([`http://both.test:${o.port}/y`]);
    expect(both.stdout.toString()).toContain('origin saw GET /y');
  });

  test('a name that does not resolve is a 502 saying so', async () => {
    const w = await world({ config: { sandbox: { network: { allow: ['nowhere.test'] } } } });
    const r = await w.curl(['-w', '%{http_code}', 'http://nowhere.test/']);
    expect(r.stdout.toString()).toMatch(/could not resolve nowhere\.test.*502$/s);
  });
});

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { addressClassifier } from '../../../electron/host/network/address-kind';
import type { ShellManager } from '../../../electron/host/shells/shell-manager';
import { rulesOverStdin } from '../../../electron/host/sandbox/sandbox';
import {
  abi,
  attackWorld,
  launcher,
  networkGap,
  type AttackWorld,
} from '../../reliability/attacks/attack-world';
import { bodyOf, fakeResolver, startHttpOrigin } from '../../helpers/net-fixtures';

// Shells of a session under the real launcher, whose network is confined to the session's egress
// proxy: curl reaches an allowed name through it and nothing else; the environment points every
// tool at it; a dev server one shell starts is reachable from another shell of the same session
// (directly and through the proxy) and from no other session; the app's own listeners never are.
// The internet is stood in for by a server on 127.0.0.2 (classified public here); names resolve
// through the test's table.

const real = addressClassifier();
const egress = {
  resolver: fakeResolver({ 'allowed.test': '127.0.0.2', 'other.test': '127.0.0.2' }),
  addressKind: (a: string) => (a === '127.0.0.2' ? ('public' as const) : real(a)),
};

let w: AttackWorld | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await w?.dispose();
  w = undefined;
});

async function run(shells: ShellManager, command: string) {
  const r = await shells.run({
    command,
    cwd: w!.root,
    root: w!.root,
    config: w!.config,
    tty: false,
    timeoutMs: 30_000,
  });
  if ('kind' in r) throw new Error(r.message);
  return r;
}

describe.runIf(abi >= 4 && networkGap === null)('a confined shell and its session proxy', () => {
  test('curl downloads from an allowed name through the proxy; an unlisted one gets the 403 and the result lists it', async () => {
    const o = await startHttpOrigin('127.0.0.2');
    cleanups.push(() => o.close());
    w = attackWorld({}, { config: { sandbox: { network: { allow: ['allowed.test'] } } }, egress });
    const ok = await run(
      w.shells,
      `curl -sS http://allowed.test:${o.port}/bytes/200000 | sha256sum`,
    );
    expect(ok.result.text).toContain(bodyOf(200000).sha);
    expect(ok.info.sandbox).toMatchObject({ mode: 'landlock', network: { mode: 'proxy' } });
    expect(ok.networkRefused).toEqual([]);

    // The program hides the 403 (-f, output to /dev/null): the result still says why.
    const no = await run(
      w.shells,
      `curl -sf -o /dev/null http://other.test:${o.port}/x; echo "exit $?"`,
    );
    expect(no.result.text).toBe('exit 22\n');
    expect(no.networkRefused).toEqual([
      `connection to other.test:${o.port} refused: other.test is not allowed and this run has nobody to ask. To allow it, add "Network(other.test)" to permissions.allow (configs/app.json, or the project's .mewbo/settings.json) or "other.test" to sandbox.network.allow in configs/app.json.`,
    ]);
    const body = await run(w.shells, `curl -sS http://other.test:${o.port}/x`);
    expect(body.result.text).toContain('connection to other.test');
  });

  test('every tool is pointed at the proxy and nothing around it; no credentials in the URL', async () => {
    w = attackWorld(
      {},
      { env: { ...process.env, NO_PROXY: 'localhost,.corp', no_proxy: '*' }, egress },
    );
    const r = await run(w.shells, 'env | grep -i -E "proxy" | sort');
    const port = /HTTP_PROXY=http:\/\/127\.0\.0\.1:(\d+)/.exec(r.result.text)?.[1];
    expect(port).toBeDefined();
    const url = `http://127.0.0.1:${port}`;
    for (const name of [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'ALL_PROXY',
      'http_proxy',
      'https_proxy',
      'all_proxy',
      'npm_config_proxy',
      'npm_config_https_proxy',
    ])
      expect(r.result.text).toContain(`${name}=${url}\n`);
    expect(r.result.text).toContain('NODE_USE_ENV_PROXY=1');
    expect(r.result.text).not.toMatch(/no_proxy/i);
    expect(r.info.sandbox).toMatchObject({
      network: { mode: 'proxy', connect_ports: [Number(port)] },
    });
  });

  test('with confinement off the network is open and no proxy is set', async () => {
    w = attackWorld({}, { config: { sandbox: { network: { confine: false } } }, egress });
    const r = await run(
      w.shells,
      'env | grep -E "^(https?|all|HTTPS?|ALL)_PROXY=|^npm_config_(https_)?proxy="; true',
    );
    expect(r.result.text).toBe('');
    expect(r.info.sandbox).toMatchObject({ network: { mode: 'open' } });
  });

  test("a dev server one shell starts is reachable from the session's other shells, directly and through the proxy, and from no other session", async () => {
    w = attackWorld({}, { egress });
    const dev = await w.shells.start({
      command: `python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8); print('PORT', s.getsockname()[1], flush=True)
while True:
  c, _ = s.accept(); c.recv(4096); c.sendall(b'HTTP/1.0 200 OK\\\\r\\\\n\\\\r\\\\nDEV-SERVER'); c.close()"`,
      cwd: w.root,
      root: w.root,
      config: w.config,
      tty: false,
    });
    if ('kind' in dev) throw new Error(dev.message);
    let port = 0;
    while (!port) {
      await new Promise((r) => setTimeout(r, 50));
      port = Number(/PORT (\d+)/.exec(dev.buffer.read(0).text)?.[1] ?? 0);
    }
    const direct = `exec 3<>/dev/tcp/127.0.0.1/${port}; printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3`;
    const proxied = `curl -sS http://localhost:${port}/`;
    const same = await run(w.shells, `${direct}; echo; ${proxied}`);
    expect(same.result.text.match(/DEV-SERVER/g)).toHaveLength(2);

    const other = w.service.forSession('s_other02');
    const theirs = await run(other, `${direct}; echo; ${proxied}; echo`);
    expect(theirs.result.text).not.toContain('DEV-SERVER');
    expect(theirs.result.text).toMatch(/connect: Permission denied/);
    expect(theirs.result.text).toContain(`no process of this session listens on port ${port}`);
    expect(theirs.networkRefused).toHaveLength(1);
  });

  test("the app's own listeners are reached neither directly nor through the proxy, even listed in local_ports", async () => {
    const app = createServer((c) => c.end('APP-SECRET')).listen(0, '127.0.0.1');
    await new Promise((r) => app.once('listening', r));
    cleanups.push(() => new Promise<void>((r) => app.close(() => r())));
    const port = (app.address() as { port: number }).port;
    w = attackWorld({}, { config: { sandbox: { network: { local_ports: [port] } } }, egress });
    const r = await run(
      w.shells,
      `cat </dev/tcp/127.0.0.1/${port}; echo; curl -sS http://127.0.0.1:${port}/; echo; curl -sS -p http://localhost:${port}/`,
    );
    expect(r.result.text).not.toContain('APP-SECRET');
    expect(r.result.text).toMatch(/connect: Permission denied/);
    expect(r.networkRefused).toEqual([
      expect.stringContaining(
        `connection to 127.0.0.1:${port} refused: that port is one of the app's own listeners`,
      ),
      expect.stringContaining(
        `connection to localhost:${port} refused: that port is one of the app's own listeners`,
      ),
    ]);
  });

  test("a session's other confined processes (a project hook) get its shells' proxy and ports: an allowed name answers through it, a local service directly does not", async () => {
    const o = await startHttpOrigin('127.0.0.2');
    cleanups.push(() => o.close());
    const local = createServer((c) => c.end('LOCAL-SERVICE')).listen(0, '127.0.0.1');
    await new Promise((r) => local.once('listening', r));
    cleanups.push(() => new Promise<void>((r) => local.close(() => r())));
    const localPort = (local.address() as { port: number }).port;
    w = attackWorld({}, { config: { sandbox: { network: { allow: ['allowed.test'] } } }, egress });
    const shellEnv = await run(w.shells, 'echo "$HTTPS_PROXY"');
    const net = await w.service.networkFor('s_attack01', w.root);
    expect(net?.env.HTTPS_PROXY).toBe(shellEnv.result.text.trim());
    expect(shellEnv.info.sandbox).toMatchObject({
      network: { mode: 'proxy', connect_ports: net!.grant.connectPorts },
    });

    const prepared = await w.service.sandbox.prepare({
      config: w.config,
      root: w.root,
      tempDirs: [w.root],
      network: net!.grant,
    });
    if ('refused' in prepared) throw new Error(prepared.refused.message);
    // Asynchronously: the proxy answering the hook runs on this event loop.
    const hook = spawn(
      launcher!,
      [
        ...rulesOverStdin(prepared.rules),
        '--',
        'bash',
        '-c',
        `curl -sS http://allowed.test:${o.port}/hook; echo; cat </dev/tcp/127.0.0.1/${localPort}; echo end`,
      ],
      { env: { ...process.env, ...net!.env } },
    );
    hook.stdin.end(prepared.rules);
    let out = '';
    hook.stdout.on('data', (d) => (out += d));
    hook.stderr.on('data', (d) => (out += d));
    await new Promise((r) => hook.once('close', r));
    expect(out).toContain('origin saw GET /hook host=allowed.test');
    expect(out).toMatch(/connect: Permission denied/);
    expect(out).not.toContain('LOCAL-SERVICE');
  });

  test('a background shell hears of its refusals in its next read', async () => {
    w = attackWorld({}, { egress });
    const bg = await w.shells.start({
      command: 'curl -s -o /dev/null http://other.test/; echo done',
      cwd: w.root,
      root: w.root,
      config: w.config,
      tty: false,
    });
    if ('kind' in bg) throw new Error(bg.message);
    await bg.whenExited;
    const read = await w.shells.read(bg.id, {});
    expect(read).toMatchObject({
      network_refused: [expect.stringContaining('connection to other.test:80 refused')],
    });
    expect(await w.shells.read(bg.id, {})).not.toHaveProperty('network_refused');
  });
});

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { McpServerConfig } from '../../../electron/host/config/schema';
import { LauncherSandbox } from '../../../electron/host/lsp/sandboxed-launch';
import { McpManager } from '../../../electron/host/mcp/mcp-manager';
import { addressClassifier } from '../../../electron/host/network/address-kind';
import { ServerNetworks } from '../../../electron/host/network/server-networks';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';
import { fakeResolver, startHttpOrigin, type Origin } from '../../helpers/net-fixtures';
import { tempDir } from '../../helpers/temp';
import { FAST_LIMITS, TRUST_ALL, byName, call, sessionRef } from '../../integration/mcp/harness';
import { abi, installRoot, launcher, networkGap } from './attack-world';

// Issue 25 part 1, servers: an MCP server the app starts under agent.server_sandbox reaches the
// network only through an egress proxy of its own, which lets through the names its
// `mcpServers.NAME.network` lists. The attack: the server opens a socket to a server on this
// machine itself, around the proxy. Unconfined (the control) it gets the server's answer;
// confined, the connect is refused, while a request through its proxy to a listed name is
// answered and one to an unlisted name is refused with where to list it. A project's `.mcp.json`
// server listing a name as its own `network` (the same list that lets the user's server through)
// is refused it: a project cannot grant itself network; the user's projects.KEY.network_allow can.

const real = addressClassifier();
/** The internet is a server on 127.0.0.2, classified public here. */
const egress = {
  resolver: fakeResolver({ 'listed.test': '127.0.0.2', 'unlisted.test': '127.0.0.2' }),
  addressKind: (a: string) => (a === '127.0.0.2' ? ('public' as const) : real(a)),
};

let serverJs: string;
let origin: Origin;
const tmp = tempDir('mewbo-server-net-');
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  serverJs = await buildMcpTestServer();
  origin = await startHttpOrigin('127.0.0.2');
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await origin?.close();
  tmp.cleanup();
});

function manager(confined: boolean, raw: Record<string, unknown> = {}) {
  const config = parseConfig({ agent: { server_sandbox: true }, ...raw });
  const networks = new ServerNetworks({ config: () => config, ...egress });
  const sandbox = new LauncherSandbox({
    launcher,
    installRoot,
    homeDir: join(tmp.dir, 'home'),
    config: () => config,
    network: (server, root) => networks.forServer(server, root),
  });
  const appServers: Record<string, McpServerConfig> = {
    fetcher: {
      command: process.execPath,
      args: [serverJs],
      env: {},
      disabled: false,
      network: ['listed.test'],
    },
  };
  const m = new McpManager({
    appServers,
    limits: FAST_LIMITS,
    trust: TRUST_ALL,
    sandbox: confined
      ? (root, argv, server) => sandbox.wrap(root ?? tmp.dir, argv, server)
      : undefined,
  });
  cleanups.push(
    () => networks.dispose(),
    () => m.dispose(),
  );
  return m;
}

/** A project whose `.mcp.json` server `proj` lists `listed.test` as its own network. */
function projectGrantingItself(): string {
  const root = realpathSync(tmp.dir) + `/project-${Math.random().toString(36).slice(2, 8)}`;
  mkdirSync(root);
  writeFileSync(
    join(root, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        proj: { command: process.execPath, args: [serverJs], network: ['listed.test'] },
      },
    }),
  );
  return root;
}

async function tools(confined: boolean) {
  const all = await manager(confined).toolsForRun(sessionRef(), null);
  return {
    connect: byName(all, 'mcp__fetcher__connect')!,
    curl: byName(all, 'mcp__fetcher__curl')!,
  };
}

describe.runIf(abi >= 4 && networkGap === null)(
  'route: a confined MCP server opens a socket around its proxy',
  () => {
    test('unprotected: an unconfined server connects straight to a local server', async () => {
      const { connect } = await tools(false);
      const got = await call(connect, { host: '127.0.0.2', port: origin.port });
      expect(got).toMatchObject({ text: expect.stringContaining('origin saw GET /direct') });
    });

    test('protected: the direct socket is refused; through its proxy a listed name answers and an unlisted one is refused', async () => {
      const { connect, curl } = await tools(true);
      const before = origin.seen.length;
      expect(await call(connect, { host: '127.0.0.2', port: origin.port })).toMatchObject({
        text: 'CONNECT EACCES',
      });
      expect(await call(curl, { url: `http://listed.test:${origin.port}/by-proxy` })).toMatchObject(
        { text: expect.stringContaining('origin saw GET /by-proxy host=listed.test') },
      );
      expect(await call(curl, { url: `http://unlisted.test:${origin.port}/no` })).toMatchObject({
        text: expect.stringContaining(
          `connection to unlisted.test:${origin.port} refused: unlisted.test is not in mcpServers.fetcher.network, and a server's connections are never asked. To allow it, add "unlisted.test" to mcpServers.fetcher.network in configs/app.json.`,
        ),
      });
      expect(origin.seen.slice(before).map((s) => s.url)).toEqual(['/by-proxy']);
    });
    test("protected: a project's .mcp.json server cannot grant itself network; the refusal says where the user lists it", async () => {
      const root = projectGrantingItself();
      const all = await manager(true).toolsForRun(sessionRef(), root);
      const before = origin.seen.length;
      expect(
        await call(byName(all, 'mcp__proj__curl'), {
          url: `http://listed.test:${origin.port}/self-granted`,
        }),
      ).toMatchObject({
        text: expect.stringContaining(
          `connection to listed.test:${origin.port} refused: listed.test is not allowed for proj, a server of this project's .mcp.json, and a server's connections are never asked. A project cannot grant itself network: a "network" list in .mcp.json is not read. To allow it, add "listed.test" to "network_allow" of an entry for this project under "projects" in configs/app.json ({"path": ${JSON.stringify(root)}, "network_allow": ["listed.test"]}) (or to sandbox.network.allow there, for everything you run confined).`,
        ),
      });
      expect(origin.seen.slice(before)).toEqual([]);
    });

    test("a project's server reaches what the user's configs/app.json lists for the project, and is told that key for the rest", async () => {
      const root = projectGrantingItself();
      const m = manager(true, { projects: { p: { path: root, network_allow: ['listed.test'] } } });
      const curl = byName(await m.toolsForRun(sessionRef(), root), 'mcp__proj__curl');
      const before = origin.seen.length;
      expect(await call(curl, { url: `http://listed.test:${origin.port}/granted` })).toMatchObject({
        text: expect.stringContaining('origin saw GET /granted host=listed.test'),
      });
      expect(await call(curl, { url: `http://unlisted.test:${origin.port}/no` })).toMatchObject({
        text: expect.stringContaining(
          'To allow it, add "unlisted.test" to projects.p.network_allow in configs/app.json',
        ),
      });
      expect(origin.seen.slice(before).map((s) => s.url)).toEqual(['/granted']);
    });
  },
);

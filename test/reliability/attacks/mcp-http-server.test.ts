import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from '../../unit/tools/harness';
import {
  goodHeaders,
  httpRequest,
  INITIALIZE_BODY,
  startMcpHttp,
  type McpHttpProcess,
} from '../../helpers/mcp-http-process';

// `mewbo mcp --http` listens on 127.0.0.1, where every local process and every page the browser
// shows can reach it. Each attack is first run against the SDK's transport as it comes (no Host or
// Origin check, no credential), where it gets a session; then against `mewbo mcp --http`, where
// the same request with only the attacked header changed is refused, and the honest request is
// still accepted.

let fx: Fixture;
let mewbo: McpHttpProcess;
let bare: { server: Server; port: number };

/** The SDK's Streamable HTTP transport with none of the defenses: the control. */
async function startBare(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const sdk = new SdkServer({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    void sdk.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port };
}

beforeAll(async () => {
  fx = makeFixture();
  mewbo = await startMcpHttp(fx.home, fx.root);
  bare = await startBare();
});
afterAll(async () => {
  await mewbo.stop();
  bare.server.closeAllConnections();
  await new Promise((r) => bare.server.close(r));
  fx.cleanup();
});

/** Initialize with the honest headers, `change` applied: null deletes a header. */
function initialize(port: number, token: string, change: Record<string, string | null> = {}) {
  const headers = goodHeaders(port, token);
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return httpRequest(port, { headers, body: INITIALIZE_BODY });
}

const accepted = (a: { status: number; body: string }) =>
  a.status === 200 && a.body.includes('"serverInfo"');

describe('mewbo mcp --http refuses what a hostile page or process sends', () => {
  it('control: the honest request is accepted by both servers', async () => {
    expect(accepted(await initialize(bare.port, 'anything'))).toBe(true);
    const ok = await initialize(mewbo.port, mewbo.token);
    expect(accepted(ok)).toBe(true);
    expect(ok.headers['mcp-session-id']).toBeTruthy();
  });

  it('DNS rebinding: a Host that is not this server gets a session from the bare transport, 403 here', async () => {
    for (const host of [
      'rebind.attacker.example',
      '127.0.0.1.nip.io',
      'localhost.attacker.example',
    ]) {
      expect(accepted(await initialize(bare.port, 'x', { host: `${host}:${bare.port}` }))).toBe(
        true,
      );
      const refused = await initialize(mewbo.port, mewbo.token, { host: `${host}:${mewbo.port}` });
      expect(refused.status, host).toBe(403);
      expect(refused.headers['mcp-session-id']).toBeUndefined();
    }
    // The right name on another port is another server's request.
    expect(
      (await initialize(mewbo.port, mewbo.token, { host: `127.0.0.1:${mewbo.port + 1}` })).status,
    ).toBe(403);
  });

  it("a page's cross-origin request (hostile Origin) gets a session from the bare transport, 403 here", async () => {
    for (const origin of [
      'http://attacker.example',
      `http://attacker.example:${mewbo.port}`,
      'null',
      `https://127.0.0.1:${mewbo.port + 1}`,
    ]) {
      expect(accepted(await initialize(bare.port, 'x', { origin }))).toBe(true);
      const refused = await initialize(mewbo.port, mewbo.token, { origin });
      expect(refused.status, origin).toBe(403);
    }
    expect(
      accepted(
        await initialize(mewbo.port, mewbo.token, { origin: `http://localhost:${mewbo.port}` }),
      ),
    ).toBe(true);
  });

  it('a request without the token, or with a wrong one, gets a session from the bare transport, 401 here', async () => {
    expect(accepted(await initialize(bare.port, 'x', { authorization: null }))).toBe(true);
    const none = await initialize(mewbo.port, mewbo.token, { authorization: null });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).toMatch(/--print-token/);
    const wrong = [
      `Bearer ${'0'.repeat(64)}`,
      `Bearer ${mewbo.token.slice(0, 63)}`,
      `Bearer ${mewbo.token}0`,
      `Basic ${Buffer.from(`u:${mewbo.token}`).toString('base64')}`,
      mewbo.token,
    ];
    for (const authorization of wrong)
      expect(
        (await initialize(mewbo.port, mewbo.token, { authorization })).status,
        authorization,
      ).toBe(401);
  });

  it('a session id is no credential: a request in a live session without the token is refused', async () => {
    const ok = await initialize(mewbo.port, mewbo.token);
    const session = ok.headers['mcp-session-id'] as string;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = {
      ...goodHeaders(mewbo.port, mewbo.token),
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    };
    const stolen = await httpRequest(mewbo.port, {
      headers: { ...headers, authorization: 'Bearer stolen' },
      body: list,
    });
    expect(stolen.status).toBe(401);
    expect(stolen.body).not.toMatch(/read_file/);
    // Control: the same request with the token lists the tools.
    expect((await httpRequest(mewbo.port, { headers, body: list })).body).toMatch(/read_file/);
  });
});

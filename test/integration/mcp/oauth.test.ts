import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/host/mcp/mcp-manager';
import { OAuthTestServer, type OAuthTestServerOptions } from '../../helpers/oauth-test-server';
import { closeAll, httpServer, OAuthHarness } from '../../helpers/mcp-oauth-harness';
import { byName, call, sessionRef, waitFor } from './harness';

// OAuth 2.1 as the MCP authorization spec has it, against a local authorization server on real
// HTTP: the client discovers, registers, opens the page in the (stand-in) browser, takes the
// redirect on its loopback listener, keeps tokens in the secret file, refreshes them, and says
// plainly when the user is needed.

let h: OAuthHarness;
let as: OAuthTestServer;
afterEach(() => closeAll(h, as));

async function start(opts: OAuthTestServerOptions = {}) {
  as = await OAuthTestServer.start(opts);
  h = new OAuthHarness();
}

async function serverStatus(m: McpManager) {
  return (await m.servers())[0]!;
}

async function signedIn(m: McpManager) {
  const { authorizationUrl } = await m.signIn('app:docs');
  await waitFor(
    'the server to run signed in',
    async () => (await serverStatus(m)).state === 'running',
  );
  return authorizationUrl;
}

describe('an MCP server behind OAuth', () => {
  it('waits in needs_sign_in with the command that signs in, opening nothing by itself', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    expect(await m.toolsForRun(sessionRef(), null)).toEqual([]);
    expect(await serverStatus(m)).toMatchObject({
      state: 'needs_sign_in',
      error: expect.stringContaining('mewbo mcp-auth login docs'),
    });
    expect(h.pages()).toEqual([]);
    expect(as.seen.filter((r) => r.server === 'as')).toEqual([]);
  });

  it('signs in from a button: discovery, registration, PKCE S256, the resource, the state; tokens go to the secret file only', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    const url = new URL((await signedIn(m))!);
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(as.mcpUrl);
    expect(url.searchParams.get('scope')).toBe('docs:read');
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(h.pages()[0]).toBe(url.href);
    expect(as.seen.some((r) => r.path === '/register')).toBe(true);

    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__docs__whoami'))).toMatchObject({
      text: expect.stringMatching(/^dyn-\S+ docs:read$/),
    });
    const token = as.accessTokens[0]!;
    expect(h.secretsText()).toContain(token);
    const status = await serverStatus(m);
    expect(status.sign_in).toMatchObject({
      signed_in: true,
      issuer: expect.stringContaining(as.issuer),
      scopes: ['docs:read'],
      refreshable: true,
    });
    expect(JSON.stringify(status)).not.toContain(token);
  });

  it('uses the stored sign-in on the next start without opening the browser', async () => {
    await start({ scope: 'docs:read' });
    await signedIn(
      await (async () => {
        const m = h.manager({ docs: httpServer(as.mcpUrl) });
        await m.toolsForRun(sessionRef(), null);
        return m;
      })(),
    );
    const pages = h.pages().length;
    const again = h.manager({ docs: httpServer(as.mcpUrl) });
    const tools = await again.toolsForRun(sessionRef(), null);
    expect(byName(tools, 'mcp__docs__whoami')).toBeDefined();
    expect(h.pages()).toHaveLength(pages);
  });

  it('refreshes an expired access token by itself and the call goes through', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    await signedIn(m);
    as.expireAccessTokens();
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__docs__whoami'))).toMatchObject({ kind: 'mcp_result' });
    expect(as.tokenRequests('refresh_token')).toHaveLength(1);
    expect((await serverStatus(m)).state).toBe('running');
  });

  it('two calls meeting one expired token refresh it once, and both go through', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    await signedIn(m);
    const tools = await m.toolsForRun(sessionRef(), null);
    as.expireAccessTokens();
    const whoami = byName(tools, 'mcp__docs__whoami');
    // The server rotates refresh tokens: a second refresh with the spent one is refused.
    const both = await Promise.all([call(whoami), call(whoami)]);
    expect(both).toEqual([
      expect.objectContaining({ kind: 'mcp_result' }),
      expect.objectContaining({ kind: 'mcp_result' }),
    ]);
    expect(as.tokenRequests('refresh_token')).toHaveLength(1);
  });

  it('after a revoke it stops at needs_sign_in: one refresh tried, no loop, the call says to sign in', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    await signedIn(m);
    const tools = await m.toolsForRun(sessionRef(), null);
    as.revokeAll();
    const out = await call(byName(tools, 'mcp__docs__whoami'));
    expect(out).toMatchObject({
      kind: 'error',
      code: 'mcp_unavailable',
      message: expect.stringContaining('needs sign-in'),
    });
    const row = await serverStatus(m);
    expect(row).toMatchObject({ state: 'needs_sign_in', restarts: 0 });
    expect(row.log_tail.at(-1)).toBe(`error [mewbo] ${row.error}`);
    expect(as.tokenRequests('refresh_token')).toHaveLength(1);
  });

  it('steps up: a 403 asking for more scope makes a headless run sign in again with it, then the call is made', async () => {
    await start({ scope: 'docs:read', stepUpScope: 'docs:admin' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) }, { auto: true });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__docs__admin'))).toMatchObject({ text: 'admin done' });
    const asked = h
      .pages()
      .map((p) => new URL(p).searchParams.get('scope'))
      .filter(Boolean);
    expect(asked).toEqual(['docs:read', 'docs:read docs:admin']);
  });

  it('a headless run with no browser says which command signs in and goes on without the server', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) }, { auto: true, browser: null });
    expect(await m.toolsForRun(sessionRef(), null)).toEqual([]);
    expect(h.notes).toEqual([
      "MCP server 'docs' needs sign-in and no browser can be opened here: run mewbo mcp-auth login docs; going on without it",
    ]);
  });

  it('asks for offline_access when the authorization server offers it', async () => {
    await start({ scope: 'docs:read', asScopes: ['docs:read', 'offline_access'] });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    const url = new URL((await signedIn(m))!);
    expect(url.searchParams.get('scope')).toBe('docs:read offline_access');
  });

  it('a pre-registered client from config signs in without registering, its secret on the token request', async () => {
    await start({ registration: false, client: { client_id: 'pre-1', client_secret: 's3cret' } });
    const m = h.manager({
      docs: httpServer(as.mcpUrl, {
        client_id: 'pre-1',
        client_secret: 's3cret',
        grant: 'authorization_code',
      }),
    });
    await m.toolsForRun(sessionRef(), null);
    await signedIn(m);
    expect(as.seen.some((r) => r.path === '/register')).toBe(false);
    const exchange = as.tokenRequests('authorization_code')[0]!;
    expect(exchange.authorization).toBe(`Basic ${Buffer.from('pre-1:s3cret').toString('base64')}`);
    expect(h.secretsText()).not.toContain('s3cret');
  });

  it('a machine client (client_credentials with a secret) gets its token without a browser', async () => {
    await start({ client: { client_id: 'bot', client_secret: 'bot-secret' } });
    const m = h.manager({
      docs: httpServer(as.mcpUrl, {
        client_id: 'bot',
        client_secret: 'bot-secret',
        grant: 'client_credentials',
      }),
    });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__docs__whoami'))).toMatchObject({ text: 'bot ' });
    expect(h.pages()).toEqual([]);
    expect(as.tokenRequests('client_credentials')).toHaveLength(1);
  });

  it('a machine client with private_key_jwt signs its assertion with the configured key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await start({
      client: {
        client_id: 'bot-jwt',
        public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
      },
    });
    const m = h.manager({
      docs: httpServer(as.mcpUrl, {
        client_id: 'bot-jwt',
        private_key_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
        grant: 'client_credentials',
      }),
    });
    const tools = await m.toolsForRun(sessionRef(), null);
    expect(await call(byName(tools, 'mcp__docs__whoami'))).toMatchObject({ text: 'bot-jwt ' });
    expect(as.tokenRequests('client_credentials')[0]!.form.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('sign out forgets the tokens: the server needs sign-in again', async () => {
    await start({ scope: 'docs:read' });
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    await signedIn(m);
    expect(await m.signOut('app:docs')).toMatchObject({ state: 'needs_sign_in' });
    expect(h.secretsText()).not.toContain('at-');
  });
});

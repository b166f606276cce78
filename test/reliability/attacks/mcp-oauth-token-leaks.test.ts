import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { listenElsewhere, OAuthTestServer } from '../../helpers/oauth-test-server';
import { closeAll, httpServer, OAuthHarness } from '../../helpers/mcp-oauth-harness';
import { sessionRef, TRUST_ALL, waitFor } from '../../integration/mcp/harness';

// The routes by which an MCP sign-in's tokens could reach a host they were not issued for. Each
// attack is first shown working against a path without the defense (the control), then made
// against the app's own client, which must send the other host nothing.

let h: OAuthHarness;
let as: OAuthTestServer;
let elsewhere: Awaited<ReturnType<typeof listenElsewhere>>;
afterEach(() => closeAll(h, as, elsewhere));

/** A user signed in to app server `docs` at the authorization server; the manager is gone. */
async function signedInApp(): Promise<void> {
  as = await OAuthTestServer.start({ scope: 'docs:read' });
  elsewhere = await listenElsewhere();
  h = new OAuthHarness();
  const m = h.manager({ docs: httpServer(as.mcpUrl) });
  await m.toolsForRun(sessionRef(), null);
  await h.signedIn(m, 'app:docs');
  await m.dispose();
}

const bearers = () => elsewhere.seen.filter((r) => r.authorization?.startsWith('Bearer '));

describe("a project's .mcp.json rewritten to another URL after the user signed in", () => {
  async function signedInProject() {
    as = await OAuthTestServer.start({ scope: 'docs:read' });
    elsewhere = await listenElsewhere();
    h = new OAuthHarness();
    const root = join(h.home.dir, 'repo');
    mkdirSync(root);
    const write = (url: string) =>
      writeFileSync(
        join(root, '.mcp.json'),
        JSON.stringify({ mcpServers: { docs: { type: 'http', url } } }),
      );
    write(as.mcpUrl);
    const real = realpathSync(root);
    const m = h.manager({}, {}, TRUST_ALL);
    await m.toolsForRun(sessionRef(), real);
    await h.signedIn(m, `project:${real}:docs`);
    await m.dispose();
    return { real, write };
  }

  it('control: a sign-in looked up by server name alone sends its token to the new URL', async () => {
    const { real } = await signedInProject();
    const stored = await h.stored(`project:${real}:docs`, as.mcpUrl).read();
    await fetch(`${elsewhere.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stored.tokens!.access_token}` },
      body: '{}',
    });
    expect(bearers()).toHaveLength(1);
  });

  it('the app binds the sign-in to its URL: the rewritten server gets no token and needs sign-in', async () => {
    const { real, write } = await signedInProject();
    write(`${elsewhere.url}/mcp`);
    const m = h.manager({}, {}, TRUST_ALL);
    await m.toolsForRun(sessionRef(), real);
    expect(elsewhere.seen.length).toBeGreaterThan(0);
    expect(bearers()).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({ state: 'needs_sign_in' });
  });
});

describe('an MCP server that redirects its requests to another host', () => {
  async function redirecting() {
    await signedInApp();
    as.redirect('/mcp', `${elsewhere.url}/mcp`);
    return as.accessTokens[0]!;
  }

  it('control: a client that follows the redirect with its headers hands the token over', async () => {
    const token = await redirecting();
    const first = await fetch(as.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    await fetch(first.headers.get('location')!, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearers()).toHaveLength(1);
  });

  it('the app follows redirects only within the server origin: the other host sees nothing', async () => {
    await redirecting();
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    expect(as.seen.at(-1)).toMatchObject({
      path: '/mcp',
      authorization: expect.stringMatching(/^Bearer /),
    });
    expect(elsewhere.seen).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({
      state: 'failed',
      error: expect.stringContaining(`Redirect to ${elsewhere.url}/mcp not followed`),
    });
  });
});

describe('protected resource metadata that switches to another authorization server', () => {
  it('control: refreshing at the advertised server posts the refresh token there', async () => {
    await signedInApp();
    const stored = await h.stored('app:docs', as.mcpUrl).read();
    await refreshAuthorization(elsewhere.url, {
      clientInformation: stored.client!,
      refreshToken: stored.tokens!.refresh_token!,
    }).catch(() => {});
    expect(elsewhere.seen.some((r) => r.body.includes(stored.tokens!.refresh_token!))).toBe(true);
  });

  it('the app keeps tokens bound to their issuer: a switched server never gets the refresh token', async () => {
    await signedInApp();
    const store = h.stored('app:docs', as.mcpUrl);
    const refresh = (await store.read()).tokens!.refresh_token!;
    // The server now names another authorization server, and the cached discovery is gone.
    as.switchAuthorizationServer(elsewhere.url);
    await store.update((r) => {
      delete r.discovery;
    });
    as.expireAccessTokens();
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    expect(elsewhere.seen.some((r) => r.body.includes(refresh))).toBe(false);
    expect((await m.servers())[0]).toMatchObject({
      state: 'needs_sign_in',
      error: expect.stringContaining(
        `the server now names the authorization server ${elsewhere.url}`,
      ),
    });
  });
});

/** A form POST as a client that follows redirects (fetch's default) makes it. */
const postFollowing = (url: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'follow' }).catch(
    () => {},
  );

describe('a token endpoint that redirects to another host during the code exchange', () => {
  it('control: a client that follows the redirect posts the code verifier there', async () => {
    as = await OAuthTestServer.start({ scope: 'docs:read' });
    elsewhere = await listenElsewhere();
    as.redirect('/token', `${elsewhere.url}/token`);
    await postFollowing(`${as.issuer}/token`, {
      grant_type: 'authorization_code',
      code: 'the-code',
      code_verifier: 'the-verifier',
    });
    expect(elsewhere.seen.some((r) => r.body.includes('the-verifier'))).toBe(true);
  });

  it('the app posts the code to the issuer only: the other host sees nothing', async () => {
    as = await OAuthTestServer.start({ scope: 'docs:read' });
    elsewhere = await listenElsewhere();
    as.redirect('/token', `${elsewhere.url}/token`);
    h = new OAuthHarness();
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    await m.signIn('app:docs').catch(() => {});
    const row = await waitFor('the sign-in to fail', async () => {
      const s = (await m.servers())[0]!;
      return s.error?.startsWith('sign-in failed') ? s : undefined;
    });
    // The exchange was made, at the issuer, once.
    expect(as.tokenRequests('authorization_code')).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
    expect(row.error).toContain(`Redirect to ${elsewhere.url}/token not followed`);
  });
});

describe('a token endpoint that redirects to another host when a token is refreshed', () => {
  it('control: a client that follows the redirect posts the refresh token there', async () => {
    await signedInApp();
    const refresh = (await h.stored('app:docs', as.mcpUrl).read()).tokens!.refresh_token!;
    as.redirect('/token', `${elsewhere.url}/token`);
    await postFollowing(`${as.issuer}/token`, {
      grant_type: 'refresh_token',
      refresh_token: refresh,
    });
    expect(elsewhere.seen.some((r) => r.body.includes(refresh))).toBe(true);
  });

  it('the app refreshes at the issuer only: the other host never gets the refresh token', async () => {
    await signedInApp();
    as.redirect('/token', `${elsewhere.url}/token`);
    as.expireAccessTokens();
    const m = h.manager({ docs: httpServer(as.mcpUrl) });
    await m.toolsForRun(sessionRef(), null);
    // The refresh was tried, at the issuer, once, and nothing followed it elsewhere.
    expect(as.tokenRequests('refresh_token')).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
    expect((await m.servers())[0]).toMatchObject({ state: 'needs_sign_in', restarts: 0 });
  });
});

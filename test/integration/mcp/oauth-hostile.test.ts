import { afterEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/host/mcp/mcp-manager';
import {
  listenElsewhere,
  OAuthTestServer,
  type OAuthTestServerOptions,
} from '../../helpers/oauth-test-server';
import { closeAll, httpServer, OAuthHarness } from '../../helpers/mcp-oauth-harness';
import { sessionRef, waitFor } from './harness';

// Servers that get OAuth wrong, one way each: the sign-in fails with an error that names what was
// wrong and where, on the server's row and in its log view, the server waits in needs_sign_in (no
// restart loop), the authorization server sees exactly the requests one attempt makes, and nothing
// reaches the other host.

let h: OAuthHarness;
let as: OAuthTestServer;
let elsewhere: Awaited<ReturnType<typeof listenElsewhere>>;
afterEach(() => closeAll(h, as, elsewhere));

async function start(opts: (other: string) => OAuthTestServerOptions): Promise<McpManager> {
  elsewhere = await listenElsewhere();
  as = await OAuthTestServer.start({ scope: 'docs:read', ...opts(elsewhere.url) });
  h = new OAuthHarness();
  const m = h.manager({ docs: httpServer(as.mcpUrl) });
  await m.toolsForRun(sessionRef(), null);
  return m;
}

/**
 * Signs in and waits for the outcome: the error the row shows. A failure before the page opens is
 * also the answer to mcp.signIn; one after it only reaches the row.
 */
async function failedSignIn(m: McpManager): Promise<string> {
  const thrown = await m.signIn('app:docs').then(
    () => null,
    (err: Error) => err.message,
  );
  const row = await waitFor('the sign-in to fail', async () => {
    const s = (await m.servers())[0]!;
    return s.state === 'needs_sign_in' && s.error?.startsWith('sign-in failed') ? s : undefined;
  });
  expect(row.restarts).toBe(0);
  expect(row.log_tail.at(-1)).toBe(`error [mewbo] ${row.error}`);
  if (thrown !== null) expect(thrown).toBe(row.error!.replace(/^sign-in failed: /, ''));
  return row.error!;
}

const asPaths = () => as.seen.filter((r) => r.server === 'as').map((r) => `${r.method} ${r.path}`);

describe('OAuth bad input', () => {
  it('malformed authorization server metadata: named with its URL and fields, nothing registered', async () => {
    const m = await start(() => ({ malformedMetadata: true }));
    const error = await failedSignIn(m);
    expect(error).toContain(
      `GET ${as.issuer}/.well-known/oauth-authorization-server answered with malformed OAuth metadata`,
    );
    expect(error).toMatch(/issuer: .*expected string/);
    expect(asPaths()).toEqual(['GET /.well-known/oauth-authorization-server']);
    expect(h.pages()).toEqual([]);
  });

  it('malformed protected resource metadata: named with its URL and fields, nothing else asked', async () => {
    const m = await start(() => ({ malformedResourceMetadata: true }));
    const error = await failedSignIn(m);
    expect(error).toContain(as.prmUrl);
    expect(error).toMatch(/resource: .*expected string/);
    expect(asPaths()).toEqual([]);
    expect(h.pages()).toEqual([]);
  });

  it('authorization server metadata that redirects to another host: not followed, nothing sent there', async () => {
    const m = await start((other) => ({
      redirects: [
        { path: '/.well-known/oauth-authorization-server', to: `${other}/as-metadata` },
        { path: '/.well-known/openid-configuration', to: `${other}/openid` },
      ],
    }));
    const error = await failedSignIn(m);
    expect(error).toContain(`Redirect to ${elsewhere.url}/as-metadata not followed`);
    expect(elsewhere.seen).toEqual([]);
    expect(asPaths()).not.toContain('POST /register');
    expect(h.pages()).toEqual([]);
  });

  it('protected resource metadata that redirects to another host: not followed, not guessed around', async () => {
    const m = await start((other) => ({
      redirects: [{ path: '/.well-known/oauth-protected-resource/mcp', to: `${other}/prm` }],
    }));
    const error = await failedSignIn(m);
    expect(error).toContain("the server's protected resource metadata could not be read: HTTP 307");
    expect(elsewhere.seen).toEqual([]);
    expect(asPaths()).toEqual([]);
  });

  it('a token endpoint that redirects to another host: the code and verifier never reach it', async () => {
    const m = await start((other) => ({ redirects: [{ path: '/token', to: `${other}/token` }] }));
    const error = await failedSignIn(m);
    expect(error).toContain(`POST ${as.issuer}/token`);
    expect(error).toContain(`Redirect to ${elsewhere.url}/token not followed`);
    expect(elsewhere.seen).toEqual([]);
    expect(as.tokenRequests()).toHaveLength(1);
  });

  it('metadata naming another resource: refused before any authorization request', async () => {
    const m = await start(() => ({ resource: 'http://127.0.0.1:1/someone-else' }));
    const error = await failedSignIn(m);
    expect(error).toContain('Protected resource http://127.0.0.1:1/someone-else does not match');
    expect(asPaths()).not.toContain('GET /authorize');
    expect(h.pages()).toEqual([]);
  });

  it('a token issued for another resource: refused by the server, one refresh, then needs sign-in', async () => {
    const m = await start(() => ({ tokenResource: 'http://127.0.0.1:1/someone-else' }));
    await m.signIn('app:docs');
    const row = await waitFor('the refused token to show', async () => {
      const s = (await m.servers())[0]!;
      return s.state === 'needs_sign_in' && s.sign_in?.signed_in ? s : undefined;
    });
    expect(row.error).toContain('needs sign-in');
    expect(row.log_tail.at(-1)).toBe(`error [mewbo] ${row.error}`);
    expect(row.restarts).toBe(0);
    expect(as.tokenRequests('refresh_token')).toHaveLength(1);
    expect(as.tokenRequests('authorization_code')).toHaveLength(1);
  });

  it('an expired token with no refresh token: needs sign-in, no browser opened in the background', async () => {
    const m = await start(() => ({ refreshTokens: false }));
    await m.signIn('app:docs');
    await waitFor('running', async () => (await m.servers())[0]!.state === 'running');
    const pages = h.pages().length;
    as.expireAccessTokens();
    await m.restart('app:docs');
    const row = (await m.servers())[0]!;
    expect(row).toMatchObject({ state: 'needs_sign_in', restarts: 0 });
    expect(row.log_tail.at(-1)).toBe(`error [mewbo] ${row.error}`);
    expect(h.pages()).toHaveLength(pages);
    expect(as.tokenRequests('refresh_token')).toHaveLength(0);
  });
});

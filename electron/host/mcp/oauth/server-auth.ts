import { randomBytes } from 'node:crypto';
import {
  auth,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthServerInfo,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { OAUTH_CLIENT_NAME } from '../constants';
import type { McpOAuthConfig } from '../../config/schema';
import type { SecretStore } from '../../secrets/secret-store';
import {
  describeOAuthFailure,
  movedAuthorizationServer,
  type OAuthRequestSeen,
} from './oauth-errors';
import { listenForRedirect } from './loopback-redirect';
import { createOAuthProvider } from './oauth-provider';
import { canonicalUrl, OAuthRecordStore, type OAuthRecord } from './oauth-record';

// One HTTP server's OAuth, as its connection uses it: the transport's fetch (it notes the server's
// challenges: which metadata, which scopes), the background provider (stored tokens, refreshed by
// the SDK), and the sign-in the user asks for (loopback listener, browser, code exchange). The
// SDK's client/auth.js does the protocol; this owns what the app adds around it.

/** What the server's last 401 or 403 asked for (RFC 6750 WWW-Authenticate, RFC 9728). */
interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  /** The last refusal was a 403 asking for more scope (step-up), not any other 403. */
  insufficientScope?: boolean;
}

/** Opens the authorization page; the CLI and Settings open the browser, and say where it is. */
export type OpenAuthorization = (url: string) => Promise<void>;

export interface SignInOptions {
  open: OpenAuthorization;
  /** How long to wait for the browser to come back. */
  waitMs: number;
  signal?: AbortSignal;
}

/** What Settings and `mewbo mcp-auth status` show of a sign-in (never a token). */
export interface SignInStatus {
  signed_in: boolean;
  grant: 'authorization_code' | 'client_credentials';
  issuer: string | null;
  scopes: string[];
  /** ms since epoch, when the access token runs out (it is refreshed then if it can be). */
  expires_at: number | null;
  refreshable: boolean;
}

/** A sign-in that could not complete, with what the user should know. */
export class SignInError extends Error {}

/** Scopes to ask for (SEP-835: the challenge's, else the resource's, else the config's), plus
 * offline_access when the authorization server offers it, so the grant outlives the access token. */
export function chooseScope(
  challengeScope: string | undefined,
  info: OAuthServerInfo,
  configured: readonly string[] | undefined,
): string | undefined {
  const base =
    challengeScope ||
    info.resourceMetadata?.scopes_supported?.join(' ') ||
    configured?.join(' ') ||
    undefined;
  if (!info.authorizationServerMetadata?.scopes_supported?.includes('offline_access')) return base;
  const parts = base ? base.split(' ') : [];
  if (!parts.includes('offline_access')) parts.push('offline_access');
  return parts.join(' ');
}

export class McpServerAuth {
  readonly record: OAuthRecordStore;
  private challenge: Challenge = {};
  private readonly url: URL;
  /** Whether the last connection attempt had a token to present. */
  private sentToken = false;
  /** The last request made for OAuth (metadata, registration, token), for error messages. */
  private lastOAuthRequest: OAuthRequestSeen | null = null;
  /** The last refresh sent, by the refresh token it spent; its answer is never read itself. */
  private refreshing: { token: string; answer: Promise<Response> } | null = null;

  constructor(
    readonly serverName: string,
    serverId: string,
    serverUrl: string,
    readonly config: McpOAuthConfig | undefined,
    secrets: SecretStore,
    private readonly baseFetch: FetchLike = fetch,
  ) {
    this.url = new URL(serverUrl);
    this.record = new OAuthRecordStore(secrets, serverId, serverUrl);
  }

  get machine(): boolean {
    return this.config?.grant === 'client_credentials';
  }

  /**
   * The transport's fetch: notes what the server's 401s and 403s ask for. Every request of the
   * connection goes through it (and through the SDK's same-origin redirect rule on top).
   */
  readonly fetch: FetchLike = async (input, init) => {
    const response = await this.refreshOnce(input, init);
    const toServer = canonicalUrl(input) === this.url.href;
    if (!toServer) {
      const seen = new URL(input);
      seen.search = '';
      this.lastOAuthRequest = {
        method: init?.method ?? 'GET',
        url: seen.href,
        status: response.status,
      };
    }
    if ((response.status === 401 || response.status === 403) && toServer) {
      const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
      if (response.status === 401 || error === 'insufficient_scope')
        this.challenge = {
          resourceMetadataUrl: resourceMetadataUrl ?? this.challenge.resourceMetadataUrl,
          scope,
          insufficientScope: response.status === 403,
        };
    }
    return response;
  };

  /**
   * A refresh token is spent by its first use (the server rotates it), and every request that
   * meets an expired token (a call, the transport's event stream) makes the SDK refresh on its
   * own: the second refresh with the same token was refused (invalid_grant) and its call failed.
   * So a token request refreshing a token already being refreshed, or just refreshed, gets a copy
   * of that one answer instead of spending the token twice.
   */
  private async refreshOnce(input: string | URL, init?: RequestInit): Promise<Response> {
    const body = init?.method === 'POST' ? init.body : undefined;
    const form = body instanceof URLSearchParams ? body : undefined;
    const token = form?.get('grant_type') === 'refresh_token' ? form.get('refresh_token') : null;
    if (!token) return this.baseFetch(input, init);
    if (this.refreshing?.token !== token) {
      const answer = this.baseFetch(input, init);
      this.refreshing = { token, answer };
      // No answer at all (the network failed): the token was not spent, so a retry sends it.
      answer.catch(() => {
        if (this.refreshing?.answer === answer) this.refreshing = null;
      });
    }
    return (await this.refreshing.answer).clone();
  }

  /**
   * The provider a connection's transport gets: for a machine client always (it fetches its own
   * tokens), for a user's grant once there are tokens to send and refresh. Without one a 401 is
   * plainly "needs sign-in", with no discovery or registration done in the background.
   */
  async transportProvider(): Promise<OAuthClientProvider | undefined> {
    this.sentToken = this.machine || Boolean((await this.record.read()).tokens);
    if (!this.sentToken) return undefined;
    return createOAuthProvider({ config: this.config, record: this.record });
  }

  /** Why the user is needed, for a failure `needsSignIn` accepted. */
  signInReason(err: unknown): string {
    if (movedAuthorizationServer(err)) return this.describe(err);
    if (this.challenge.insufficientScope)
      return `the server asks for more access${this.challenge.scope ? ` (${this.challenge.scope})` : ''}`;
    return this.sentToken
      ? 'the server refused the stored sign-in and it could not be renewed'
      : 'the server asks for a sign-in';
  }

  /** Whether a failure was the server asking for a (better) sign-in, not any other failure. */
  needsSignIn(err: unknown): boolean {
    if (err instanceof UnauthorizedError || movedAuthorizationServer(err)) return true;
    if (!(err instanceof StreamableHTTPError)) return false;
    return err.code === 401 || (err.code === 403 && this.challenge.insufficientScope === true);
  }

  /** The scopes the server last asked for, for the status line. */
  get wantedScope(): string | undefined {
    return this.challenge.scope;
  }

  /**
   * Asks the server once without a token (an `initialize`), to learn what its 401 asks for before
   * a sign-in started from a terminal. False when it answers without asking for one.
   */
  async probe(headers: Record<string, string> = {}): Promise<boolean> {
    const response = await this.fetch(this.url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: OAUTH_CLIENT_NAME, version: '0' },
        },
      }),
    });
    await response.body?.cancel();
    return response.status === 401 || response.status === 403;
  }

  /** What went wrong, in words, with the OAuth request it went wrong at; `plain` otherwise. */
  describe(err: unknown, plain = err instanceof Error ? err.message : String(err)): string {
    return describeOAuthFailure(err, this.lastOAuthRequest, plain);
  }

  /** A new connection attempt: earlier requests no longer explain its failures. */
  forgetRequests(): void {
    this.lastOAuthRequest = null;
  }

  /** The sign-in the user asked for; resolves once tokens are stored, or fails with a SignInError. */
  async signIn(opts: SignInOptions): Promise<void> {
    this.forgetRequests();
    try {
      await this.signInOnce(opts);
    } catch (err) {
      throw err instanceof SignInError ? err : new SignInError(this.describe(err));
    }
  }

  private async signInOnce(opts: SignInOptions): Promise<void> {
    if (this.machine) {
      const provider = await createOAuthProvider({ config: this.config, record: this.record });
      const result = await auth(provider, this.authOptions(undefined));
      if (result !== 'AUTHORIZED') throw new SignInError('the token endpoint gave no token');
      return;
    }
    const before = await this.record.read();
    const state = randomBytes(24).toString('base64url');
    const wantedPort = before.redirect_uri ? Number(new URL(before.redirect_uri).port) : 0;
    const redirect = await listenForRedirect({
      state,
      port: wantedPort,
      serverName: this.serverName,
    });
    try {
      // A registration names its redirect URI: on another port it must be made again.
      if (before.client && before.redirect_uri && before.redirect_uri !== redirect.redirectUrl)
        await this.record.update((r) => {
          delete r.client;
        });
      const info = await this.discover();
      await this.record.update((r) => {
        r.discovery = { ...info, resourceMetadataUrl: this.challenge.resourceMetadataUrl?.href };
      });
      const scope = chooseScope(this.challenge.scope, info, this.config?.scopes);
      const provider = await createOAuthProvider({
        config: this.config,
        record: this.record,
        interactive: {
          redirectUrl: redirect.redirectUrl,
          state,
          openAuthorization: (url) => opts.open(url.href),
        },
      });
      const first = await auth(provider, this.authOptions(scope));
      if (first === 'AUTHORIZED') return;
      const code = await waitFor(redirect.code, opts.waitMs, opts.signal);
      const second = await auth(provider, { ...this.authOptions(scope), authorizationCode: code });
      if (second !== 'AUTHORIZED')
        throw new SignInError('the authorization server did not accept the code; sign in again');
      this.challenge = { resourceMetadataUrl: this.challenge.resourceMetadataUrl };
    } finally {
      redirect.dispose();
    }
  }

  /**
   * RFC 9728 then RFC 8414 / OpenID discovery (the SDK's discoverOAuthServerInfo, step by step): a
   * server without protected resource metadata (404) falls back to its own origin as the 2025-03-26
   * spec had it, but metadata that is there and cannot be read (a redirect elsewhere, an error) is
   * the error, not a reason to guess.
   */
  private async discover(): Promise<OAuthServerInfo> {
    let resourceMetadata: OAuthServerInfo['resourceMetadata'];
    try {
      resourceMetadata = await discoverOAuthProtectedResourceMetadata(
        this.url,
        { resourceMetadataUrl: this.challenge.resourceMetadataUrl },
        this.fetch,
      );
    } catch (err) {
      if (!(err instanceof Error) || !/does not implement/.test(err.message))
        throw new SignInError(
          `the server's protected resource metadata could not be read: ${this.describe(err)}`,
        );
    }
    const authorizationServerUrl =
      resourceMetadata?.authorization_servers?.[0] ?? new URL('/', this.url).href;
    // The SDK skips a discovery URL that redirects off its origin and, finding nothing, falls
    // back to default endpoints; a redirect is an answer, so it is the error instead.
    let redirected: string | null = null;
    const authorizationServerMetadata = await discoverAuthorizationServerMetadata(
      authorizationServerUrl,
      {
        fetchFn: async (input, init) => {
          const response = await this.fetch(input, init);
          const location = response.headers.get('location');
          if (response.status >= 300 && response.status < 400 && location && !redirected) {
            const from = new URL(input);
            const to = new URL(location, from);
            from.search = to.search = '';
            redirected = `GET ${from.href} answered HTTP ${response.status}: Redirect to ${to.href} not followed`;
          }
          return response;
        },
      },
    );
    if (!authorizationServerMetadata && redirected)
      throw new SignInError(`the authorization server's metadata could not be read: ${redirected}`);
    return { authorizationServerUrl, authorizationServerMetadata, resourceMetadata };
  }

  private authOptions(scope: string | undefined) {
    return {
      serverUrl: this.url,
      scope,
      resourceMetadataUrl: this.challenge.resourceMetadataUrl,
      fetchFn: this.fetch,
    };
  }

  /** Forgets this server's tokens and registration. */
  signOut(): Promise<void> {
    return this.record.clear();
  }

  async status(): Promise<SignInStatus> {
    return signInStatus(await this.record.read(), this.machine);
  }
}

export function signInStatus(r: OAuthRecord, machine: boolean): SignInStatus {
  const t = r.tokens;
  return {
    signed_in: t !== undefined,
    grant: machine ? 'client_credentials' : 'authorization_code',
    issuer: t?.issuer ?? null,
    scopes: t?.scope ? t.scope.split(' ').filter(Boolean) : [],
    expires_at:
      t?.expires_in !== undefined && r.tokens_saved_at !== undefined
        ? r.tokens_saved_at + t.expires_in * 1000
        : null,
    refreshable: Boolean(t?.refresh_token),
  };
}

function waitFor<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new SignInError(
            `no answer from the browser within ${Math.round(ms / 1000)} s; sign in again`,
          ),
        ),
      ms,
    );
    const abort = () => reject(new SignInError('the sign-in was cancelled'));
    signal?.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    });
  });
}

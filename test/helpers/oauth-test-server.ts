/* eslint-disable @typescript-eslint/no-explicit-any -- a fake server reads whatever a client sends */
import { createHash, randomBytes, createPublicKey, verify as verifySignature } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// A local authorization server and an MCP server it protects, on two real HTTP listeners (two
// origins), for the OAuth tests: discovery (RFC 9728, RFC 8414), dynamic registration (RFC 7591),
// authorization code with PKCE S256 and the resource indicator (RFC 8707), refresh with rotation,
// client credentials (secret or private_key_jwt), expiry, revocation and step-up (403
// insufficient_scope). `/authorize` approves at once, so a stand-in browser that follows redirects
// completes a sign-in. Options make it hostile in one way at a time; every request is recorded.

export interface SeenRequest {
  server: 'as' | 'mcp';
  method: string;
  path: string;
  query: Record<string, string>;
  authorization?: string;
  form: Record<string, string>;
}

export interface OAuthTestServerOptions {
  /** The scope every MCP request needs (named in the 401's WWW-Authenticate). */
  scope?: string;
  /** Tool `admin` needs this scope as well: calling it with less is a 403 asking for it. */
  stepUpScope?: string;
  /** `scopes_supported` of the authorization server's metadata. */
  asScopes?: string[];
  /** Seconds an access token lives (default an hour). */
  accessTtlS?: number;
  /** Issue refresh tokens (default yes). */
  refreshTokens?: boolean;
  /** Offer dynamic registration (default yes). */
  registration?: boolean;
  /** A pre-registered client. */
  client?: { client_id: string; client_secret?: string; public_key_pem?: string };
  /** Serve CIMD: a client_id that is this URL needs no registration. */
  cimd?: boolean;
  /** Hostile: the authorization server's metadata is not what RFC 8414 says. */
  malformedMetadata?: boolean;
  /** Hostile: the protected resource metadata is not what RFC 9728 says. */
  malformedResourceMetadata?: boolean;
  /** Hostile: the protected resource metadata names another resource. */
  resource?: string;
  /** Hostile: tokens are issued for this resource, whatever the client asked for. */
  tokenResource?: string;
  /** Hostile: these paths answer with a redirect to `url` instead. */
  redirects?: { path: string; to: string }[];
}

interface Grant {
  client_id: string;
  scope: string;
  resource?: string;
}

interface IssuedToken extends Grant {
  expires_at: number;
}

const b64url = (b: Buffer) => b.toString('base64url');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

/** Verifies an RS256/ES256 compact JWS with a PEM public key; its claims, or null. */
function verifyJwt(jwt: string, publicKeyPem: string): Record<string, unknown> | null {
  const [h, p, sig] = jwt.split('.');
  if (!h || !p || !sig) return null;
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
  const key = createPublicKey(publicKeyPem);
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(sig, 'base64url');
  const ok =
    header.alg === 'ES256'
      ? verifySignature('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
      : verifySignature('sha256', data, key, signature);
  return ok
    ? (JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>)
    : null;
}

export class OAuthTestServer {
  readonly seen: SeenRequest[] = [];
  private readonly clients = new Map<
    string,
    { secret?: string; redirect_uris: string[]; public_key_pem?: string }
  >();
  private readonly codes = new Map<string, Grant & { challenge: string; redirect_uri: string }>();
  private readonly access = new Map<string, IssuedToken>();
  private readonly refresh = new Map<string, Grant>();
  private asPort = 0;
  private mcpPort = 0;
  /** The authorization server the resource metadata names (hostile: switched to another). */
  private advertisedIssuer: string | null = null;

  private constructor(
    private readonly opts: OAuthTestServerOptions,
    private readonly as: Server,
    private readonly rs: Server,
  ) {
    if (opts.client)
      this.clients.set(opts.client.client_id, {
        secret: opts.client.client_secret,
        redirect_uris: [],
        public_key_pem: opts.client.public_key_pem,
      });
  }

  static async start(opts: OAuthTestServerOptions = {}): Promise<OAuthTestServer> {
    const as = createServer();
    const rs = createServer();
    const server = new OAuthTestServer(opts, as, rs);
    as.on('request', (req, res) => void server.onAs(req, res));
    rs.on('request', (req, res) => void server.onMcp(req, res));
    for (const s of [as, rs]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    server.asPort = (as.address() as AddressInfo).port;
    server.mcpPort = (rs.address() as AddressInfo).port;
    return server;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.asPort}`;
  }

  get mcpUrl(): string {
    return `http://127.0.0.1:${this.mcpPort}/mcp`;
  }

  get prmUrl(): string {
    return `http://127.0.0.1:${this.mcpPort}/.well-known/oauth-protected-resource/mcp`;
  }

  /** The live access tokens, as the resource server knows them. */
  get accessTokens(): string[] {
    return [...this.access.keys()];
  }

  /** From now on the protected resource metadata names another authorization server. */
  switchAuthorizationServer(url: string): void {
    this.advertisedIssuer = url;
  }

  /** Every token and grant stops working (the user revoked the app's access). */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }

  /** Access tokens expire now; refresh tokens still work. */
  expireAccessTokens(): void {
    for (const t of this.access.values()) t.expires_at = 0;
  }

  /** Token endpoint calls, by grant type. */
  tokenRequests(grant?: string): SeenRequest[] {
    return this.seen.filter(
      (r) => r.server === 'as' && r.path === '/token' && (!grant || r.form.grant_type === grant),
    );
  }

  async close(): Promise<void> {
    for (const s of [this.as, this.rs]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }

  private record(server: 'as' | 'mcp', req: IncomingMessage, body: string): SeenRequest {
    const url = new URL(req.url ?? '/', 'http://x');
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(body))
      : {};
    const seen: SeenRequest = {
      server,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      form,
    };
    this.seen.push(seen);
    return seen;
  }

  /** From now on `path` answers with a redirect to `to`. */
  redirect(path: string, to: string): void {
    this.opts.redirects = [...(this.opts.redirects ?? []), { path, to }];
  }

  private redirected(path: string, res: ServerResponse): boolean {
    const r = this.opts.redirects?.find((x) => x.path === path);
    if (!r) return false;
    res.writeHead(307, { location: r.to }).end();
    return true;
  }

  private async onAs(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const r = this.record('as', req, body);
    if (this.redirected(r.path, res)) return;
    if (r.path === '/.well-known/oauth-authorization-server') {
      if (this.opts.malformedMetadata) return json(res, 200, { issuer: 42, token_endpoint: [] });
      return json(res, 200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        ...(this.opts.registration === false
          ? {}
          : { registration_endpoint: `${this.issuer}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: [
          'none',
          'client_secret_basic',
          'client_secret_post',
          'private_key_jwt',
        ],
        ...(this.opts.asScopes ? { scopes_supported: this.opts.asScopes } : {}),
        ...(this.opts.cimd ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (r.path === '/register' && r.method === 'POST') {
      const meta = JSON.parse(body) as { redirect_uris?: string[] };
      const client_id = `dyn-${b64url(randomBytes(6))}`;
      this.clients.set(client_id, { redirect_uris: meta.redirect_uris ?? [] });
      return json(res, 201, { ...meta, client_id, token_endpoint_auth_method: 'none' });
    }
    if (r.path === '/authorize') return this.authorize(r, res);
    if (r.path === '/token' && r.method === 'POST') return this.token(r, req, res);
    json(res, 404, { error: 'not_found' });
  }

  private knownClient(id: string | undefined) {
    if (!id) return undefined;
    if (this.opts.cimd && id.startsWith('https://')) return { redirect_uris: [] as string[] };
    return this.clients.get(id);
  }

  private authorize(r: SeenRequest, res: ServerResponse): void {
    const q = r.query;
    const client = this.knownClient(q.client_id);
    const redirect = q.redirect_uri ? new URL(q.redirect_uri) : null;
    // RFC 8252 7.3: a loopback redirect matches whatever its port.
    const portless = (u: string) => u.replace(/^(http:\/\/127\.0\.0\.1):\d+/, '$1');
    const allowed =
      client &&
      redirect &&
      (client.redirect_uris.length === 0 ||
        client.redirect_uris.some((u) => portless(u) === portless(redirect.href)));
    if (!allowed || q.code_challenge_method !== 'S256' || !q.code_challenge)
      return json(res, 400, { error: 'invalid_request' });
    const code = b64url(randomBytes(12));
    this.codes.set(code, {
      client_id: q.client_id!,
      scope: q.scope ?? '',
      resource: q.resource,
      challenge: q.code_challenge,
      redirect_uri: q.redirect_uri!,
    });
    redirect.searchParams.set('code', code);
    if (q.state) redirect.searchParams.set('state', q.state);
    res.writeHead(302, { location: redirect.href }).end();
  }

  /** The client a token request authenticates as (basic, post, JWT or public), or null. */
  private authenticate(r: SeenRequest): string | null {
    const f = r.form;
    if (r.authorization?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(r.authorization.slice(6), 'base64')
        .toString()
        .split(':')
        .map(decodeURIComponent);
      return this.clients.get(id!)?.secret === secret ? id! : null;
    }
    if (f.client_assertion) {
      const id = f.client_id ?? '';
      const key = [...this.clients.entries()].find(([, c]) => c.public_key_pem);
      if (!key) return null;
      const claims = verifyJwt(f.client_assertion, key[1].public_key_pem!);
      return claims && claims.sub === key[0] && (!id || id === key[0]) ? key[0] : null;
    }
    const client = this.knownClient(f.client_id);
    if (!client) return null;
    if ('secret' in client && client.secret && client.secret !== f.client_secret) return null;
    return f.client_id!;
  }

  private issue(res: ServerResponse, grant: Grant): void {
    const access_token = `at-${b64url(randomBytes(12))}`;
    const ttl = this.opts.accessTtlS ?? 3600;
    const resource = this.opts.tokenResource ?? grant.resource;
    this.access.set(access_token, { ...grant, resource, expires_at: Date.now() + ttl * 1000 });
    let refresh_token: string | undefined;
    if (this.opts.refreshTokens !== false) {
      refresh_token = `rt-${b64url(randomBytes(12))}`;
      this.refresh.set(refresh_token, grant);
    }
    json(res, 200, {
      access_token,
      token_type: 'Bearer',
      expires_in: ttl,
      ...(grant.scope ? { scope: grant.scope } : {}),
      ...(refresh_token ? { refresh_token } : {}),
    });
  }

  private token(r: SeenRequest, _req: IncomingMessage, res: ServerResponse): void {
    const f = r.form;
    const clientId = this.authenticate(r);
    if (!clientId) return json(res, 401, { error: 'invalid_client' });
    if (f.grant_type === 'authorization_code') {
      const code = this.codes.get(f.code ?? '');
      this.codes.delete(f.code ?? '');
      const challenge = createHash('sha256')
        .update(f.code_verifier ?? '')
        .digest('base64url');
      if (!code || code.client_id !== clientId || code.challenge !== challenge)
        return json(res, 400, { error: 'invalid_grant' });
      if (code.redirect_uri !== f.redirect_uri) return json(res, 400, { error: 'invalid_grant' });
      return this.issue(res, { client_id: clientId, scope: code.scope, resource: f.resource });
    }
    if (f.grant_type === 'refresh_token') {
      const grant = this.refresh.get(f.refresh_token ?? '');
      this.refresh.delete(f.refresh_token ?? '');
      if (!grant || grant.client_id !== clientId)
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'refresh token revoked',
        });
      return this.issue(res, { ...grant, resource: f.resource ?? grant.resource });
    }
    if (f.grant_type === 'client_credentials')
      return this.issue(res, { client_id: clientId, scope: f.scope ?? '', resource: f.resource });
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  private challenge(res: ServerResponse, status: 401 | 403, scope: string, error?: string): void {
    const parts = [
      `resource_metadata="${this.prmUrl}"`,
      ...(scope ? [`scope="${scope}"`] : []),
      ...(error ? [`error="${error}"`] : []),
    ];
    json(
      res,
      status,
      { error: error ?? 'unauthorized' },
      {
        'www-authenticate': `Bearer ${parts.join(', ')}`,
      },
    );
  }

  private async onMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const r = this.record('mcp', req, body);
    if (this.redirected(r.path, res)) return;
    if (
      r.path === '/.well-known/oauth-protected-resource/mcp' &&
      this.opts.malformedResourceMetadata
    )
      return json(res, 200, { resource: 42, authorization_servers: 'not a list' });
    if (r.path === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, {
        resource: this.opts.resource ?? this.mcpUrl,
        authorization_servers: [this.advertisedIssuer ?? this.issuer],
        ...(this.opts.scope ? { scopes_supported: this.opts.scope.split(' ') } : {}),
      });
    if (r.path !== '/mcp') return json(res, 404, { error: 'not_found' });
    const token = r.authorization?.startsWith('Bearer ') ? r.authorization.slice(7) : undefined;
    const scope = this.opts.scope ?? '';
    if (!token) return this.challenge(res, 401, scope);
    const issued = this.access.get(token);
    if (
      !issued ||
      issued.expires_at <= Date.now() ||
      (issued.resource && issued.resource !== this.mcpUrl)
    )
      return this.challenge(res, 401, scope, 'invalid_token');
    const message = body ? (JSON.parse(body) as any) : undefined;
    const has = new Set(issued.scope.split(' '));
    const needs = [...scope.split(' ').filter(Boolean)];
    if (
      message?.method === 'tools/call' &&
      message.params?.name === 'admin' &&
      this.opts.stepUpScope
    )
      needs.push(this.opts.stepUpScope);
    if (!needs.every((s) => has.has(s)))
      return this.challenge(res, 403, needs.join(' '), 'insufficient_scope');
    const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
    mcp.registerTool(
      'whoami',
      { description: 'Says which client and scopes the token carries' },
      async () => ({
        content: [{ type: 'text', text: `${issued.client_id} ${issued.scope}` }],
      }),
    );
    mcp.registerTool(
      'admin',
      { description: 'Needs the step-up scope', inputSchema: { x: z.number().optional() } },
      async () => ({
        content: [{ type: 'text', text: 'admin done' }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, message);
  }
}

/** A listener that records whatever reaches it (where a leaked token would go). */
export async function listenElsewhere(): Promise<{
  url: string;
  seen: { path: string; authorization?: string; body: string }[];
  close(): Promise<void>;
}> {
  const seen: { path: string; authorization?: string; body: string }[] = [];
  const server = createServer(async (req, res) => {
    seen.push({
      path: req.url ?? '/',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      body: await readBody(req),
    });
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

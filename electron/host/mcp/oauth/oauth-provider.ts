import { createPrivateKey } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../../config/schema';
import { OAUTH_CLIENT_NAME, OAUTH_PLACEHOLDER_REDIRECT } from '../constants';
import type { OAuthRecordStore } from './oauth-record';

// The app's side of the SDK's OAuth client (client/auth.js does discovery, PKCE, registration,
// the token requests and the issuer binding): where things are kept, and what the user's config
// says. Two kinds: a background provider, used by a connection's transport, that refreshes tokens
// but never opens a browser and never registers a client (a server that needs the user ends as
// "needs sign-in"); and an interactive one for a sign-in the user asked for, which registers,
// opens the page and waits for the redirect.

export interface InteractiveSignIn {
  redirectUrl: string;
  state: string;
  /** Opens the authorization page (the browser, or the user told where to go). */
  openAuthorization(url: URL): Promise<void>;
}

export interface OAuthProviderOptions {
  config: McpOAuthConfig | undefined;
  record: OAuthRecordStore;
  /** Present for a sign-in the user asked for; absent for a connection's background provider. */
  interactive?: InteractiveSignIn;
}

/** The JWS algorithm for a PEM key when the config names none. */
export function signingAlgorithm(pem: string): string {
  const key = createPrivateKey(pem);
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    return 'ES256';
  }
  throw new Error(`private_key_pem is a ${type} key; use an RSA, EC or Ed25519 key`);
}

function clientMetadata(
  config: McpOAuthConfig | undefined,
  redirectUrl: string | undefined,
): OAuthClientMetadata {
  const machine = config?.grant === 'client_credentials';
  return {
    client_name: OAUTH_CLIENT_NAME,
    redirect_uris: redirectUrl ? [redirectUrl] : [],
    grant_types: machine ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: machine ? [] : ['code'],
    token_endpoint_auth_method: config?.private_key_pem
      ? 'private_key_jwt'
      : config?.client_secret
        ? 'client_secret_basic'
        : 'none',
    ...(config?.scopes?.length ? { scope: config.scopes.join(' ') } : {}),
  };
}

export async function createOAuthProvider(
  opts: OAuthProviderOptions,
): Promise<OAuthClientProvider> {
  const { config, record, interactive } = opts;
  const machine = config?.grant === 'client_credentials';
  // A background authorization-code provider still needs a redirect URI for the SDK to get as far
  // as "needs the browser"; nothing listens there and nothing is opened.
  const redirectUrl = machine
    ? undefined
    : (interactive?.redirectUrl ??
      (await record.read()).redirect_uri ??
      OAUTH_PLACEHOLDER_REDIRECT);
  let verifier: string | undefined;
  const configured = config?.client_id;

  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return clientMetadata(config, redirectUrl);
    },
    ...(config?.client_metadata_url && !configured
      ? { clientMetadataUrl: config.client_metadata_url }
      : {}),
    state: () => interactive?.state ?? '',
    async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
      const r = await record.read();
      if (!configured) return r.client;
      const bound = r.config_client?.client_id === configured ? r.config_client.issuer : undefined;
      return {
        client_id: configured,
        ...(config.client_secret ? { client_secret: config.client_secret } : {}),
        ...(bound ? { issuer: bound } : {}),
      };
    },
    // Interactive only, tokens from this sign-in alone: an explicit sign-in (a new account, more
    // scopes) goes to the authorization page instead of quietly refreshing the old grant.
    tokens: async () => (interactive ? undefined : (await record.read()).tokens),
    async saveTokens(tokens) {
      await record.update((r) => {
        r.tokens = tokens;
        r.tokens_saved_at = Date.now();
      });
    },
    // Background: the SDK then reports the user is needed (UnauthorizedError); nothing is opened.
    async redirectToAuthorization(url) {
      if (interactive) await interactive.openAuthorization(url);
    },
    saveCodeVerifier(v) {
      verifier = v;
    },
    codeVerifier() {
      if (!verifier) throw new Error('no sign-in is under way (no PKCE verifier)');
      return verifier;
    },
    async invalidateCredentials(scope) {
      await record.update((r) => {
        if (scope === 'all' || scope === 'tokens') {
          delete r.tokens;
          delete r.tokens_saved_at;
        }
        if (scope === 'all' || scope === 'client') {
          delete r.client;
          delete r.config_client;
        }
        if (scope === 'all' || scope === 'discovery') delete r.discovery;
      });
      if (scope === 'all' || scope === 'verifier') verifier = undefined;
    },
    saveDiscoveryState: (state) =>
      record.update((r) => {
        r.discovery = state;
      }),
    discoveryState: async () => (await record.read()).discovery,
  };
  // Registering needs the user's redirect (a sign-in), or is never done (a configured machine
  // client): the background provider has no way to save a new client, so the SDK cannot register.
  if (interactive || machine)
    provider.saveClientInformation = (info) =>
      record.update((r) => {
        if (configured && info.issuer)
          r.config_client = { client_id: configured, issuer: info.issuer };
        else if (!configured) {
          r.client = info;
          if (interactive) r.redirect_uri = interactive.redirectUrl;
        }
      });
  if (config?.client_id && config.private_key_pem) {
    provider.addClientAuthentication = createPrivateKeyJwtAuth({
      issuer: config.client_id,
      subject: config.client_id,
      privateKey: config.private_key_pem,
      alg: config.signing_algorithm ?? signingAlgorithm(config.private_key_pem),
    });
  }
  if (machine) {
    provider.prepareTokenRequest = (scope) => {
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope) params.set('scope', scope);
      return params;
    };
  }
  return provider;
}

import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../secrets/secret-store';

// One MCP server's sign-in, kept in the secret store (per user: the store is the user's) under
// `mcp.oauth.<server id>` (per server: a project's server is keyed by its project too). Never in a
// config file, a log or a status. A record is bound to the server URL it was obtained for: when the
// config names another URL (a rewritten .mcp.json), the record reads as empty, so its tokens are
// never sent to the new address.

export interface OAuthRecord {
  server_url: string;
  /** A registration this app made (dynamic, or a metadata document), stamped with its issuer. */
  client?: OAuthClientInformationMixed;
  /** The authorization server a configured client_id was first accepted by; no other gets it. */
  config_client?: { client_id: string; issuer: string };
  /** Stamped with their issuer by the SDK: a refresh token is only posted back to it. */
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since epoch): with expires_in, when they expire. */
  tokens_saved_at?: number;
  discovery?: OAuthDiscoveryState;
  /** The loopback redirect URI the registration names: the next sign-in listens there again. */
  redirect_uri?: string;
}

/** The secret's name for a server id (`app:NAME`, `project:ROOT:NAME`). */
export function oauthSecretName(serverId: string): string {
  return `mcp.oauth.${serverId}`;
}

/** A URL as compared for binding: parsed and printed, so spelling does not matter. */
export function canonicalUrl(url: string | URL): string {
  return new URL(url).href;
}

export class OAuthRecordStore {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly serverUrl: string;

  constructor(
    private readonly secrets: SecretStore,
    readonly serverId: string,
    serverUrl: string | URL,
  ) {
    this.serverUrl = canonicalUrl(serverUrl);
  }

  /** The record for this server at this URL; empty when there is none or it was for another URL. */
  async read(): Promise<OAuthRecord> {
    const raw = await this.secrets.get(oauthSecretName(this.serverId));
    const empty: OAuthRecord = { server_url: this.serverUrl };
    if (!raw) return empty;
    let parsed: OAuthRecord;
    try {
      parsed = JSON.parse(raw) as OAuthRecord;
    } catch {
      return empty;
    }
    return parsed && parsed.server_url === this.serverUrl ? parsed : empty;
  }

  /** Read-modify-write, one at a time: the SDK saves client, verifier and tokens in quick turns. */
  update(change: (record: OAuthRecord) => void): Promise<void> {
    const next = this.chain.then(async () => {
      const record = await this.read();
      change(record);
      await this.secrets.set(oauthSecretName(this.serverId), JSON.stringify(record));
    });
    this.chain = next.catch(() => {});
    return next;
  }

  /** Forgets the sign-in (logout), whatever URL it was for. */
  clear(): Promise<void> {
    const next = this.chain.then(() => this.secrets.delete(oauthSecretName(this.serverId)));
    this.chain = next.catch(() => {});
    return next;
  }
}

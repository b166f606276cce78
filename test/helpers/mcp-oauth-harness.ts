import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpOAuthConfig, McpServerConfig } from '../../electron/host/config/schema';
import { McpManager, type McpTrust } from '../../electron/host/mcp/mcp-manager';
import type { SignInPolicy } from '../../electron/host/mcp/sign-in-policy';
import { FileSecretStore } from '../../electron/host/secrets/file-secret-store';
import { browserOpener, type BrowserOpener } from '../../electron/host/system/browser-opener';
import { DEFAULT_MCP_LIMITS } from '../../electron/host/mcp/constants';
import { OAuthRecordStore } from '../../electron/host/mcp/oauth/oauth-record';
import { tempDir } from './temp';

// An McpManager as the host builds one for HTTP servers behind OAuth: a real secret file in a temp
// directory, and the stand-in browser (a real child process started the way $BROWSER is) that
// follows the authorization server's redirects back to the app's loopback listener.

export const STAND_IN_BROWSER = fileURLToPath(new URL('./stand-in-browser.mjs', import.meta.url));

/** $BROWSER for the stand-in: node, the script, a log of the pages it loaded. */
export function standInBrowserCommand(log: string): string {
  return `${process.execPath} ${STAND_IN_BROWSER} --log ${log}`;
}

export function pagesOpened(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

export function httpServer(url: string, oauth?: McpOAuthConfig): McpServerConfig {
  return { type: 'http', url, headers: {}, disabled: false, ...(oauth ? { oauth } : {}) };
}

export class OAuthHarness {
  readonly home = tempDir('mewbo-oauth-');
  readonly secretsFile = join(this.home.dir, 'secrets.json');
  readonly browserLog = join(this.home.dir, 'browser.log');
  readonly notes: string[] = [];
  readonly browser: BrowserOpener = browserOpener({
    BROWSER: standInBrowserCommand(this.browserLog),
  })!;
  private readonly managers: McpManager[] = [];

  manager(
    appServers: Record<string, McpServerConfig>,
    signIn: Partial<SignInPolicy> = {},
    trust?: McpTrust,
  ): McpManager {
    const m = new McpManager({
      appServers,
      trust,
      limits: { ...DEFAULT_MCP_LIMITS, connectTimeoutMs: 15_000 },
      secrets: new FileSecretStore(this.secretsFile),
      signIn: {
        browser: this.browser,
        auto: false,
        waitMs: 20_000,
        notify: (line) => this.notes.push(line),
        ...signIn,
      },
    });
    this.managers.push(m);
    return m;
  }

  /** The secrets file as text ('' before anything was stored). */
  secretsText(): string {
    return existsSync(this.secretsFile) ? readFileSync(this.secretsFile, 'utf8') : '';
  }

  pages(): string[] {
    return pagesOpened(this.browserLog);
  }

  /** The sign-in stored for `serverId` at `url`, read as the app reads it. */
  stored(serverId: string, url: string): OAuthRecordStore {
    return new OAuthRecordStore(new FileSecretStore(this.secretsFile), serverId, url);
  }

  /** Starts a sign-in and waits for the server to run with it. */
  async signedIn(m: McpManager, id: string): Promise<void> {
    await m.signIn(id);
    for (let i = 0; i < 800; i++) {
      if ((await m.servers()).some((s) => s.id === id && s.state === 'running')) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${id} to run signed in`);
  }

  async close(): Promise<void> {
    await Promise.all(this.managers.map((m) => m.dispose()));
    this.home.cleanup();
  }
}

/** Closes what a test started, whichever of them it got to start. */
export async function closeAll(
  ...things: ({ close(): Promise<void> } | undefined)[]
): Promise<void> {
  for (const t of things) await t?.close();
}

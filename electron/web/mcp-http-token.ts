import { join } from 'node:path';
import type { HomePaths } from '../host/config/paths';
import { loadOrCreateWebSecret } from './web-secret';

// The bearer token of `mewbo mcp --http`: a random secret in an owner-only file beside the web
// host's key (web-secret.ts owns how such a file is made and read), so only a process of this user
// that can read $MEWBO_HOME/configs (which the agent's shells cannot) gets it, and it stays the same
// across restarts for the client configured with it. Deleting the file revokes it.

export function mcpHttpTokenFile(paths: HomePaths): string {
  return join(paths.configDir, 'mcp-http.key');
}

/** The token, made on first use. */
export function loadOrCreateMcpHttpToken(paths: HomePaths): string {
  return loadOrCreateWebSecret(mcpHttpTokenFile(paths)).toString('hex');
}

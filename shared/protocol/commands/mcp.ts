import { z } from 'zod';
import { command } from '../command';

export const mcpServerStateSchema = z.enum([
  'starting',
  'running',
  'restarting',
  'failed',
  'stopped',
  'disabled',
  /** An HTTP server behind OAuth with no usable sign-in: waiting for the user (Sign in). */
  'needs_sign_in',
]);
export type McpServerState = z.infer<typeof mcpServerStateSchema>;

/** An HTTP server's OAuth sign-in as it may be shown: never a token. */
export const mcpSignInSchema = z.object({
  signed_in: z.boolean(),
  grant: z.enum(['authorization_code', 'client_credentials']),
  /** The authorization server that issued the tokens. */
  issuer: z.string().nullable(),
  scopes: z.array(z.string()),
  /** ms since epoch; the access token is refreshed then when it can be. */
  expires_at: z.number().nullable(),
  refreshable: z.boolean(),
  /** What signs in from a terminal: `mewbo mcp-auth login NAME` (with --project for a project's). */
  login_command: z.string(),
});
export type McpSignIn = z.infer<typeof mcpSignInSchema>;

/** One MCP server as the Settings screen shows it. */
export const mcpServerStatusSchema = z.object({
  /** Unique among listed servers: `app:<name>` or `project:<root>:<name>`. */
  id: z.string(),
  name: z.string(),
  scope: z.enum(['app', 'project']),
  /** The project a `.mcp.json` server belongs to; null for app servers. */
  root: z.string().nullable(),
  transport: z.enum(['stdio', 'http']),
  state: mcpServerStateSchema,
  /** Why it is failed or restarting (with the last stderr lines for a stdio server). */
  error: z.string().nullable(),
  tools: z.array(z.string()),
  restarts: z.number().int(),
  pid: z.number().int().nullable(),
  stderr_tail: z.array(z.string()),
  /** The last log messages the server sent (notifications/message): `level [logger] text`. */
  log_tail: z.array(z.string()),
  /** Resources the running server offers (resources/list), for the user to see and attach. */
  resources: z.array(
    z.object({ uri: z.string(), name: z.string(), description: z.string().nullable() }),
  ),
  /** Prompts the running server offers (prompts/list). */
  prompts: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
  /** HTTP servers: their OAuth sign-in; null for stdio servers. */
  sign_in: mcpSignInSchema.nullable(),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

export const mcpCommands = {
  'mcp.servers': command(
    () => z.object({}),
    () => z.object({ servers: z.array(mcpServerStatusSchema) }),
  ),
  /** Restarts a server now with a whole restart budget (after it gave up, or to pick up a rebuilt binary). */
  'mcp.restart': command(
    () => z.object({ id: z.string().min(1) }),
    () => z.object({ server: mcpServerStatusSchema }),
  ),
  /**
   * Starts a sign-in: the host opens the authorization page in the user's browser and answers
   * with its address at once (the page may be opened from there when no browser could be); the
   * server's state follows on the `mcp` topic as the sign-in completes or fails.
   */
  'mcp.signIn': command(
    () => z.object({ id: z.string().min(1) }),
    () =>
      z.object({ authorization_url: z.string().nullable(), opened_with: z.string().nullable() }),
  ),
  /** Forgets a server's tokens and registration; it then needs sign-in again. */
  'mcp.signOut': command(
    () => z.object({ id: z.string().min(1) }),
    () => z.object({ server: mcpServerStatusSchema }),
  ),
};

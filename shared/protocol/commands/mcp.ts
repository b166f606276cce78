import { z } from 'zod';
import { command } from '../command';

export const mcpServerStateSchema = z.enum([
  'starting',
  'running',
  'restarting',
  'failed',
  'stopped',
  'disabled',
]);
export type McpServerState = z.infer<typeof mcpServerStateSchema>;

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
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

export const mcpCommands = {
  'mcp.servers': command(z.object({}), z.object({ servers: z.array(mcpServerStatusSchema) })),
  /** Restarts a server now with a whole restart budget (after it gave up, or to pick up a rebuilt binary). */
  'mcp.restart': command(
    z.object({ id: z.string().min(1) }),
    z.object({ server: mcpServerStatusSchema }),
  ),
};

import { z } from 'zod';
import { command } from '../command';
import { permissionModeWire } from '../common';
import { configProblemSchema } from '../config-problem';

// The app settings the Settings screen edits besides the model (models.*) and MCP (mcp.*): the
// default permission mode, the edit backend, the shell sandbox switch and its write scope, and
// tool search. Each is a
// key of configs/app.json; a change is written there and applies to runs started after it.

const editTool = z.enum(['', 'search_replace_block', 'structured_patch']);
const writeScope = z.enum(['project', 'unrestricted']);

export const appSettingsSchema = z.object({
  permission_mode: permissionModeWire,
  /** "" follows the active model. */
  edit_tool: editTool,
  /** The backend in effect for the active model (what "" resolves to right now). */
  effective_edit_tool: z.enum(['search_replace_block', 'structured_patch']),
  shell_sandbox: z.boolean(),
  /** agent.shell_write_scope: "project" (the default) or "unrestricted". */
  shell_write_scope: writeScope,
  tool_search: z.enum(['auto', 'on', 'off']),
  /** Mistakes in configs/app.json (unknown keys, bad values that took their default). */
  config_problems: z.array(configProblemSchema),
  /**
   * The egress proxy's settings from configs/app.json (sandbox.network): whether confined
   * processes reach the network only through it, the user's own destinations, and the local ports
   * they may reach besides their session's own. Shown, not edited: approvals and the file edit them.
   */
  network: z.object({
    confine: z.boolean(),
    allow: z.array(z.string()),
    local_ports: z.array(z.number().int()),
  }),
  /** worktrees.default_for: projects whose "New session" starts in a new git worktree. */
  worktrees_default_for: z.array(z.string()),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

export const settingsCommands = {
  'settings.get': command(
    () => z.object({}),
    () => appSettingsSchema,
  ),
  'settings.update': command(
    () =>
      z.strictObject({
        permission_mode: permissionModeWire.optional(),
        edit_tool: editTool.optional(),
        shell_sandbox: z.boolean().optional(),
        shell_write_scope: writeScope.optional(),
        tool_search: z.enum(['auto', 'on', 'off']).optional(),
        /** Replaces worktrees.default_for (the New session dialog turns one project on or off). */
        worktrees_default_for: z.array(z.string().min(1)).max(1000).optional(),
      }),
    () => appSettingsSchema,
  ),
};

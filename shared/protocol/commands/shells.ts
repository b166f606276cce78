import { z } from 'zod';
import { command } from '../command';
import {
  shellInputRequestSchema,
  shellKillRequestSchema,
  shellKillResponseSchema,
  shellListRequestSchema,
  shellListResponseSchema,
  shellResizeRequestSchema,
} from '../shell-stream';
import { sandboxStatusSchema } from '../../tools/shell-payload';

const ok = z.object({ ok: z.literal(true) });

/**
 * What a console does besides watching (`shell:<session_id>:<shell_id>`): list, type, resize,
 * stop. The remote part serves the same four for a project on an SSH host (remote-commands.ts).
 */
export const consoleCommands = {
  'shells.list': command(shellListRequestSchema, shellListResponseSchema),
  'shells.input': command(shellInputRequestSchema, ok),
  'shells.resize': command(shellResizeRequestSchema, ok),
  'shells.kill': command(shellKillRequestSchema, shellKillResponseSchema),
};
export type ConsoleCommand = keyof typeof consoleCommands;

export const shellCommands = {
  ...consoleCommands,
  /** The sandbox shells get under the current config: Landlock's ABI, or why there is none. */
  'shells.sandbox': command(z.object({}), sandboxStatusSchema),
  /** Credential-looking environment variables shells do not get (agent.shell_env_allow re-admits). */
  'shells.withheldEnv': command(
    z.object({}),
    z.object({ withheld: z.array(z.string()), allowed: z.array(z.string()) }),
  ),
};

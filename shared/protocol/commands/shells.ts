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

/** The sandbox of one SSH host's shells, as its remote part reported it when the link opened. */
export const remoteSandboxSchema = z.object({
  /** `ssh://[user@]host[:port]/` */
  host: z.string(),
  /** The kernel's Landlock ABI there; 0: none, its shells run unconfined. */
  landlock_abi: z.number().int(),
  /** Why there is no Landlock there (null when there is). */
  landlock_reason: z.string().nullable(),
});
export type RemoteSandbox = z.infer<typeof remoteSandboxSchema>;

/**
 * What a console does besides watching (`shell:<session_id>:<shell_id>`): list, type, resize,
 * stop. The remote part serves the same four for a project on an SSH host (remote-commands.ts).
 */
export const consoleCommands = {
  'shells.list': command(
    () => shellListRequestSchema,
    () => shellListResponseSchema,
  ),
  'shells.input': command(
    () => shellInputRequestSchema,
    () => ok,
  ),
  'shells.resize': command(
    () => shellResizeRequestSchema,
    () => ok,
  ),
  'shells.kill': command(
    () => shellKillRequestSchema,
    () => shellKillResponseSchema,
  ),
};
export type ConsoleCommand = keyof typeof consoleCommands;

export const shellCommands = {
  ...consoleCommands,
  /** The sandbox shells get under the current config: Landlock's ABI, or why there is none. */
  'shells.sandbox': command(
    () => z.object({}),
    () => sandboxStatusSchema,
  ),
  /**
   * The SSH hosts this app has connected to since it started, each with its kernel's Landlock
   * (issue #29): a host whose kernel lacks it runs its shells unconfined, and Settings says so.
   */
  'shells.remoteSandboxes': command(
    () => z.object({}),
    () => z.object({ hosts: z.array(remoteSandboxSchema) }),
  ),
  /** Credential-looking environment variables shells do not get (agent.shell_env_allow re-admits). */
  'shells.withheldEnv': command(
    () => z.object({}),
    () => z.object({ withheld: z.array(z.string()), allowed: z.array(z.string()) }),
  ),
};

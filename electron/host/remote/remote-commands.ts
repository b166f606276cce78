import { z } from 'zod';
import { command } from '../../../shared/protocol/command';
import { toolPayloadSchema } from '../../../shared/tools/payload-schemas';
import { checkpointCommands } from './checkpoint-commands';
import { consoleCommands } from '../../../shared/protocol/commands/shells';
import { diagnosticsCommands } from './diagnostics-commands';
import { policyCommands } from './policy-commands';
import { hookCommands } from './hook-commands';
import { gitCommands } from './git-commands';
import { sessionWorktreeTop, worktreeCommands } from './worktree-commands';

// The conversation between the app and its remote part (issue #29): the app's own frames
// (shared/protocol/wire.ts, served by rpc/router.ts and rpc/connection.ts) over the SSH channel's
// stdio, one JSON frame a line, with these commands and two topics. The app is the client.
// - `shell:<session_id>:<shell_id>`: a background shell's console, the same frames, cursors and
//   acks as the app's own topic (the same ShellService serves it there).
// - `session:<session_id>`: what the session's tools emitted after their call returned (a
//   background shell's exit), as `{event}` data, each one once: acked ones are forgotten, the rest
//   are sent again to the next subscriber (after a reconnect).

export const remoteCommands = {
  /** The first call: which bundle answers and what its kernel can confine. */
  'remote.hello': command(
    () => z.object({}),
    () =>
      z.object({
        version: z.string(),
        /** 0 when the remote kernel has no usable Landlock: shells there run unconfined or not at all. */
        landlock_abi: z.number().int(),
        landlock_reason: z.string().nullable(),
      }),
  ),
  /**
   * Runs one built-in tool on the remote, in `root`, for the app's session `session_id` (its
   * shells live there across calls). What the tool emitted (todos, shell events) comes back
   * with its payload, for the app to append to the session's log.
   */
  'tools.run': command(
    () =>
      z.object({
        session_id: z.string(),
        agent_id: z.string(),
        call_id: z.string().optional(),
        root: z.string(),
        tool: z.string(),
        args: z.unknown(),
        worktree: sessionWorktreeTop,
      }),
    () => z.object({ payload: toolPayloadSchema, events: z.array(z.unknown()) }),
  ),
  ...checkpointCommands,
  /** A session's background shells on the remote, and what consoles do with them. */
  ...consoleCommands,
  ...diagnosticsCommands,
  ...policyCommands,
  ...hookCommands,
  ...gitCommands,
  ...worktreeCommands,
};

export type RemoteCommands = typeof remoteCommands;

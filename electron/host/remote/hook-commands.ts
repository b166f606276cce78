import { z } from 'zod';
import { command } from '../../../shared/protocol/command';
import { sessionWorktreeTop } from './worktree-commands';

// A project's hooks for a session on an SSH host (issue #29 part 3): the app reads them from the
// host's settings (remote-project-mirror.ts), decides trust and which hook an event runs, and the
// remote part runs each one there, confined like the session's shells on that host. No variable of
// the app's environment travels: the hook gets the host's, with the project's and session's own.

export const hookResultSchema = z.object({
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  durationMs: z.number(),
});

export const hookCommands = {
  /** Runs one project hook `command` (sh -c) in `root` on the host, the event `input` on its stdin. */
  'hooks.run': command(
    () =>
      z.object({
        session_id: z.string(),
        root: z.string().min(1),
        command: z.string(),
        input: z.unknown(),
        timeout_ms: z.number().int().positive(),
        worktree: sessionWorktreeTop,
      }),
    () => hookResultSchema,
  ),
};

import type { ErrorPayload } from '../../../shared/tools/payload';
import type { ConfinedStart } from '../shells/shell-service';
import type { HookProcessResult } from './run-hook';

// A project's hooks are the repository's code, not the user's: a hook in a trusted project's
// .mewbo/settings.json or .claude/settings.json starts confined like the session's shells (the
// same launcher rules: nothing of $MEWBO_HOME, no other project, writes only where a shell may;
// the network through the session's egress proxy; the credential-looking variables withheld).
// ShellService.confine owns that start. The user's own hooks, in configs/app.json, run as the user.

/** A hook of a project on an SSH host, run there (remote/hook-commands.ts). */
export interface RemoteHookStart {
  remote(run: { command: string; input: unknown; timeoutMs: number }): Promise<HookProcessResult>;
}

/**
 * Starts `argv` of a session's project confined like its shells (for a project on an SSH host:
 * runs it there), or says why it may not start.
 */
export type HookConfine = (
  sessionId: string,
  root: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
) => Promise<ConfinedStart | RemoteHookStart | { refused: ErrorPayload }>;

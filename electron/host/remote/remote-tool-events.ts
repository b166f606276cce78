import { sessionEventBodySchema, type SessionEventBody } from '../../../shared/protocol/events';
import { RemoteAnswerError } from './remote-answer-error';

// What a remote session's tools emitted on the host, as the app takes it into the session's log
// (a tool call's `events`, and the late ones of the `session:` topic). The app's log decides what
// the session is (its permission mode, approvals, project, checkpoints), so the host may add only
// what a tool there emits: a background shell's start and exit (tools/shell.ts). Anything else
// (a `mode_change` to auto, an `approval_decision`, a `project_switch` to a desktop folder) is
// refused, as is an event of those kinds that is malformed.

/** The kinds of event the tools that run on a host emit (remote-tools.ts REMOTE_TOOL_NAMES). */
const REMOTE_TOOL_EVENT_TYPES: ReadonlySet<string> = new Set(['shell_started', 'shell_exited']);

/** `data` as a session event a host's tool may add; throws RemoteAnswerError for anything else. */
export function remoteToolEvent(host: string, data: unknown): SessionEventBody {
  const type = (data as { type?: unknown } | null)?.type;
  const parsed = sessionEventBodySchema.safeParse(data);
  if (typeof type !== 'string' || !REMOTE_TOOL_EVENT_TYPES.has(type) || !parsed.success)
    throw new RemoteAnswerError(
      host,
      `a session event of type ${JSON.stringify(type ?? null)}${typeof type === 'string' && REMOTE_TOOL_EVENT_TYPES.has(type) ? ' that is malformed' : ''}, which no tool there adds to a session (only a background shell's start and exit)`,
    );
  return parsed.data;
}

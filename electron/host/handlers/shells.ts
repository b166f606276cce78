import type { HandlerMap, TopicProvider } from '../rpc/router';
import type { ShellService } from '../shells/shell-service';
import type { SessionManager } from '../sessions/session-manager';
import { HostError } from '../rpc/host-error';
import { isErrorPayload } from '../../../shared/tools/payload';
import type { RemoteSessions } from '../remote/remote-sessions';

type ShellHandlers = Pick<
  HandlerMap,
  | 'shells.list'
  | 'shells.input'
  | 'shells.resize'
  | 'shells.kill'
  | 'shells.sandbox'
  | 'shells.remoteSandboxes'
  | 'shells.withheldEnv'
>;

/**
 * A session whose project is on an SSH host has its shells there: its console commands and
 * streams go to its remote part (remote/remote-sessions.ts), the same requests and frames.
 */
async function remoteUrl(sessions: SessionManager, sessionId: string): Promise<string | null> {
  return (await sessions.get(sessionId)).meta.remote ?? null;
}

export function shellHandlers(
  shells: ShellService,
  sessions: SessionManager,
  remote: RemoteSessions,
): ShellHandlers {
  /** The shell, after checking the session exists (a typo'd session id is an error, not an empty list). */
  const lookup = async (sessionId: string, shellId: string) => {
    await sessions.get(sessionId);
    const shell = shells.forSession(sessionId).get(shellId);
    if (!shell || !shell.background)
      throw new HostError('not_found', `no background shell '${shellId}' in session ${sessionId}`);
    return shell;
  };
  return {
    'shells.list': async (req) => {
      const url = await remoteUrl(sessions, req.session_id);
      if (url) return remote.shells(url, 'shells.list', req);
      return { shells: shells.list(req.session_id) };
    },
    'shells.input': async (req) => {
      const url = await remoteUrl(sessions, req.session_id);
      if (url) return remote.shells(url, 'shells.input', req);
      await lookup(req.session_id, req.shell_id);
      if (!shells.forSession(req.session_id).input(req.shell_id, req.data)) {
        throw new HostError(
          'shell_exited',
          `shell ${req.shell_id} has exited; input is refused, not discarded`,
        );
      }
      return { ok: true as const };
    },
    'shells.resize': async (req) => {
      const url = await remoteUrl(sessions, req.session_id);
      if (url) return remote.shells(url, 'shells.resize', req);
      if (req.shell_id === undefined) {
        await sessions.get(req.session_id);
        shells.forSession(req.session_id).fitted(req.cols, req.rows);
        return { ok: true as const };
      }
      await lookup(req.session_id, req.shell_id);
      shells.forSession(req.session_id).fitted(req.cols, req.rows, req.shell_id);
      return { ok: true as const };
    },
    'shells.kill': async (req) => {
      const url = await remoteUrl(sessions, req.session_id);
      if (url) return remote.shells(url, 'shells.kill', req);
      await lookup(req.session_id, req.shell_id);
      const result = await shells.forSession(req.session_id).kill(req.shell_id);
      if (isErrorPayload(result)) throw new HostError(result.code, result.message);
      return { status: result.status };
    },
    'shells.sandbox': () => shells.sandboxStatus(),
    'shells.remoteSandboxes': async () => ({ hosts: remote.sandboxes() }),
    'shells.withheldEnv': async () => shells.withheldEnv(),
  };
}

/** `shell:<session_id>:<shell_id>`: retained output from the cursor, then live, flow-controlled by acks. */
export function shellTopic(
  shells: ShellService,
  sessions: SessionManager,
  remote: RemoteSessions,
): TopicProvider {
  return async (rest, cursor, sink) => {
    const colon = rest.indexOf(':');
    if (colon === -1)
      throw new HostError(
        'unknown_topic',
        `shell topic needs <session_id>:<shell_id>, got '${rest}'`,
      );
    const sessionId = rest.slice(0, colon);
    const shellId = rest.slice(colon + 1);
    const url = await remoteUrl(sessions, sessionId);
    if (url) return remote.subscribeShell(url, sessionId, shellId, cursor, sink);
    const sub = shells.subscribe(sessionId, shellId, cursor, sink);
    if (!sub) throw new HostError('not_found', `no shell '${shellId}' in session ${sessionId}`);
    return sub;
  };
}

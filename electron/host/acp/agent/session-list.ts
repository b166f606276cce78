import { RequestError, type ListSessionsResponse } from '@agentclientprotocol/sdk';
import type { SessionManager } from '../../sessions/session-manager';
import { SESSION_LIST_PAGE } from './constants';

// `session/list` (`mewbo acp`): the app's sessions an editor can load, from the app's log: those
// of the app's own agent on a local folder (not an external agent's, not an SSH host's), newest
// activity first, for one cwd when asked. The cursor is the position of the next page.

export async function listSessions(
  sessions: Pick<SessionManager, 'list'>,
  cwd: string | null,
  cursor: string | null,
): Promise<ListSessionsResponse> {
  const from = cursor === null ? 0 : Number(cursor);
  if (!Number.isInteger(from) || from < 0)
    throw RequestError.invalidParams(
      { cursor },
      `cursor '${cursor}' is not one this agent gave: pass a nextCursor from session/list, or none`,
    );
  const rows = (await sessions.list())
    .filter((s) => s.root !== null && !s.agent && !s.remote && (cwd === null || s.root === cwd))
    .sort((a, b) => b.updated_at - a.updated_at);
  const page = rows.slice(from, from + SESSION_LIST_PAGE);
  const next = from + page.length;
  return {
    sessions: page.map((s) => ({
      sessionId: s.id,
      cwd: s.root!,
      title: s.title,
      updatedAt: new Date(s.updated_at).toISOString(),
    })),
    ...(next < rows.length ? { nextCursor: String(next) } : {}),
  };
}

import type { Client } from '../transport/transport';
import type { AppStores } from './app-stores';
import type { WorktreeRequest } from '../../../shared/protocol/session-worktree';

/**
 * Creates a session in the current project and opens it (sidebar button, Ctrl/Cmd+N, menu, the
 * New session dialog). A second request while one is on its way is the same request (a double
 * click makes one session). `agent` names an external ACP agent (absent: the app's own); `worktree` says where it works; without it, a project the user listed
 * in worktrees.default_for gets a new worktree and any other the checkout.
 */
export async function createSession(
  client: Client,
  stores: Pick<AppStores, 'sessions' | 'projects'>,
  where?: { worktree: WorktreeRequest | null; agent?: string | null },
): Promise<void> {
  const store = stores.sessions.getState;
  if (store().creating) return;
  store().setCreating(true);
  try {
    const project = stores.projects.getState().current;
    const worktree = where ? where.worktree : await defaultWorktree(client, project);
    const { session } = await client.invoke('sessions.create', {
      project,
      ...(worktree ? { worktree } : {}),
      ...(where?.agent ? { agent: where.agent } : {}),
    });
    store().upsertSession(session);
    store().select(session.id);
  } finally {
    store().setCreating(false);
  }
}

/** A new worktree when the user made that the default for `project` (asked at the time: one setting). */
async function defaultWorktree(client: Client, project: string | null): Promise<true | null> {
  if (project === null) return null;
  const settings = await client.invoke('settings.get', {});
  return settings.worktrees_default_for.includes(project) ? true : null;
}

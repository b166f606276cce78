import type { Client } from '../transport/transport';
import type { AppStores } from './app-stores';

/**
 * Creates a session in the current project and opens it (sidebar button, Ctrl/Cmd+N, menu). A
 * second request while one is on its way is the same request (a double click makes one session).
 */
export async function createSession(
  client: Client,
  stores: Pick<AppStores, 'sessions' | 'projects'>,
): Promise<void> {
  const store = stores.sessions.getState;
  if (store().creating) return;
  store().setCreating(true);
  try {
    const { session } = await client.invoke('sessions.create', {
      project: stores.projects.getState().current,
    });
    store().upsertSession(session);
    store().select(session.id);
  } finally {
    store().setCreating(false);
  }
}

import type { Client } from '../transport/transport';
import { useSessions } from './sessions-store';
import { useProjects } from './projects-store';

/**
 * Creates a session in the current project and opens it (sidebar button, Ctrl/Cmd+N, menu). A
 * second request while one is on its way is the same request (a double click makes one session).
 */
export async function createSession(client: Client): Promise<void> {
  const store = useSessions.getState;
  if (store().creating) return;
  store().setCreating(true);
  try {
    const { session } = await client.invoke('sessions.create', {
      project: useProjects.getState().current,
    });
    store().upsertSession(session);
    store().select(session.id);
  } finally {
    store().setCreating(false);
  }
}

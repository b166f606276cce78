import type { Client } from '../transport/transport';
import { useSessions } from './sessions-store';
import { useProjects } from './projects-store';

/** Creates a session in the current project and opens it (sidebar button, Ctrl/Cmd+N, menu). */
export async function createSession(client: Client): Promise<void> {
  const { session } = await client.invoke('sessions.create', {
    project: useProjects.getState().current,
  });
  useSessions.getState().upsertSession(session);
  useSessions.getState().select(session.id);
}

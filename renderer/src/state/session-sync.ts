import { sessionEventSchema, transientEventSchema } from '../../../shared/protocol/events';
import type { Client } from '../transport/transport';
import { useSessions } from './sessions-store';
import type { SessionsChange } from '../../../shared/protocol/session-summary';

/** Keeps the sessions list live from the `sessions` topic. Returns an unsubscribe. */
export function syncSessionList(client: Client): () => void {
  const store = useSessions.getState();
  void client.invoke('sessions.list', {}).then((r) => store.setSessions(r.sessions));
  const sub = client.subscribe('sessions', undefined, (data) => {
    const change = data as SessionsChange;
    if (change.type === 'upsert') useSessions.getState().upsertSession(change.session);
    else useSessions.getState().removeSession(change.id);
  });
  return () => sub.unsubscribe();
}

/** Follows one session: replay from the last seq the store has, then live. */
export function followSession(client: Client, id: string): () => void {
  const have = useSessions.getState().views[id]?.events.length ?? 0;
  const sub = client.subscribe(`session:${id}`, have, (data) => {
    const durable = sessionEventSchema.safeParse(data);
    if (durable.success) {
      useSessions.getState().addEvents(id, [data as never]);
      return;
    }
    const transient = transientEventSchema.safeParse(data);
    if (transient.success) useSessions.getState().addTransient(id, transient.data);
  });
  return () => sub.unsubscribe();
}

import {
  sessionEventSchema,
  transientEventSchema,
  type SessionEvent,
} from '../../../shared/protocol/events';
import { sessionsChangeSchema } from '../../../shared/protocol/session-summary';
import type { Client } from '../transport/transport';
import { useSessions } from './sessions-store';

/** Events per `sessions.open` page: large pages keep a 10,000-event session to two round trips. */
const PAGE_EVENTS = 5000;

/** Keeps the sessions list live from the `sessions` topic. Returns an unsubscribe. */
export function syncSessionList(client: Client): () => void {
  const sub = client.subscribe('sessions', undefined, (data) => {
    const change = sessionsChangeSchema.safeParse(data);
    if (!change.success) return;
    if (change.data.type === 'upsert') useSessions.getState().upsertSession(change.data.session);
    else useSessions.getState().removeSession(change.data.id);
  });
  // Listed after subscribing, so a session created in between is not missed.
  void client
    .invoke('sessions.list', {})
    .then((r) => useSessions.getState().setSessions(r.sessions));
  return () => sub.unsubscribe();
}

/**
 * Follows one session: what the store lacks arrives in large pages (one state update each), then
 * the topic carries live events from the last seq, so there is no gap and no duplicate.
 */
export function followSession(client: Client, id: string): () => void {
  let stopped = false;
  let unsubscribe = () => {};
  const store = useSessions.getState;

  const load = async () => {
    let from = store().views[id]?.model.length ?? 0;
    for (;;) {
      const page = await client.invoke('sessions.open', { id, from, limit: PAGE_EVENTS });
      if (stopped) return;
      store().addEvents(id, page.events as SessionEvent[]);
      from = page.next;
      if (page.events.length < PAGE_EVENTS) break;
    }
    store().markLoaded(id);
    const sub = client.subscribe(`session:${id}`, from, (data) => {
      const transient = transientEventSchema.safeParse(data);
      if (transient.success) {
        store().addTransient(id, transient.data);
        return;
      }
      // Live events come one at a time; the parse guards the projection against a malformed frame.
      const durable = sessionEventSchema.safeParse(data);
      if (durable.success) store().addEvents(id, [durable.data as SessionEvent]);
    });
    unsubscribe = () => sub.unsubscribe();
  };

  load().catch((err: unknown) => {
    if (!stopped) console.error(`session ${id}: could not open`, err);
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}

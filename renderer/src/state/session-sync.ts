import {
  sessionEventSchema,
  transientEventSchema,
  type SessionEvent,
} from '../../../shared/protocol/events';
import { sessionsChangeSchema } from '../../../shared/protocol/session-summary';
import type { Client } from '../transport/transport';
import { useSessions } from './sessions-store';

/** Events per `sessions.open` page: a 10,000-event session arrives in two. */
const PAGE_EVENTS = 5000;

/** Keeps the sessions list live from the `sessions` topic. Returns an unsubscribe. */
export function syncSessionList(client: Client): () => void {
  const sub = client.subscribe('sessions', undefined, (data) => {
    const change = sessionsChangeSchema.safeParse(data);
    if (!change.success) return;
    if (change.data.type === 'upsert') useSessions.getState().upsertSession(change.data.session);
    else useSessions.getState().removeSession(change.data.id);
  });
  // Listed after subscribing (a session created in between is not missed), and again after every
  // reconnect: changes made while the socket was down never reached the topic.
  const list = () =>
    void client.invoke('sessions.list', {}).then(
      (r) => useSessions.getState().setSessions(r.sessions),
      () => {},
    );
  const offStatus = client.transport.onStatus((connected) => {
    if (connected) list();
  });
  return () => {
    offStatus();
    sub.unsubscribe();
  };
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
    const have = store().views[id]?.model.length ?? 0;
    const first = await client.invoke('sessions.open', { id, from: have, limit: PAGE_EVENTS });
    if (stopped) return;
    // The rest is requested at once (pipelined): the host serializes one page while this side
    // parses the previous one. Pages are applied in order.
    const rest: ReturnType<typeof client.invoke<'sessions.open'>>[] = [];
    for (let from = first.next; from < first.session.event_count; from += PAGE_EVENTS) {
      rest.push(client.invoke('sessions.open', { id, from, limit: PAGE_EVENTS }));
    }
    store().addEvents(id, first.events as SessionEvent[]);
    let from = first.next;
    for (const pending of rest) {
      const page = await pending;
      if (stopped) return;
      store().addEvents(id, page.events as SessionEvent[]);
      from = page.next;
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

import {
  sessionEventSchema,
  transientEventSchema,
  type SessionEvent,
  type TransientEvent,
} from '../../../shared/protocol/events';
import { sessionsChangeSchema } from '../../../shared/protocol/session-summary';
import { remoteLinkFrameSchema } from '../../../shared/protocol/remote-link';
import { sessionSnapshotFrameSchema } from '../../../shared/protocol/session-snapshot';
import type { Client } from '../transport/transport';
import type { SessionsStore } from './sessions-store';
import type { SessionViews } from './session-view-store';

/**
 * Events per page: the newest window `sessions.open` sends, and each older page loaded on scroll.
 * Opening a session costs the same whatever its history.
 */
const PAGE_EVENTS = 256;

/** Keeps the sessions list live from the `sessions` topic, and remote links from `remote`. Returns an unsubscribe. */
export function syncSessionList(
  client: Client,
  sessions: SessionsStore,
  views: SessionViews,
): () => void {
  const sub = client.subscribe('sessions', undefined, (data) => {
    const change = sessionsChangeSchema.safeParse(data);
    if (!change.success) return;
    if (change.data.type === 'upsert') sessions.getState().upsertSession(change.data.session);
    else {
      sessions.getState().removeSession(change.data.id);
      views.forget(change.data.id);
    }
  });
  // Sessions on SSH hosts: every known link on subscribe, then each change (the sidebar shows it).
  const links = client.subscribe('remote', undefined, (data) => {
    const frame = remoteLinkFrameSchema.safeParse(data);
    if (frame.success) sessions.getState().setLink(frame.data.session_id, frame.data.state);
  });
  // Listed after subscribing (a session created in between is not missed), and again after every
  // reconnect: changes made while the socket was down never reached the topic.
  const list = () =>
    void client.invoke('sessions.list', {}).then(
      (r) => sessions.getState().setSessions(r.sessions),
      () => {},
    );
  const offStatus = client.transport.onStatus((connected) => {
    if (connected) list();
  });
  return () => {
    offStatus();
    sub.unsubscribe();
    links.unsubscribe();
  };
}

/**
 * Follows one session: the snapshot and newest window first (one state update), then the topic
 * carries live events from the window's end, so there is no gap and no duplicate. Older events
 * come page by page through `loadOlderEvents` as the reader scrolls up.
 */
export function followSession(client: Client, views: SessionViews, id: string): () => void {
  let stopped = false;
  let unsubscribe = () => {};
  const view = views.get(id);
  // Streamed text is applied once per animation frame, not once per token: a long answer
  // streams at the wire's pace instead of the renderer's.
  let deltas: TransientEvent[] = [];
  let frame: number | undefined;
  const flush = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
    if (!deltas.length || stopped) return;
    const batch = deltas;
    deltas = [];
    view.addTransients(batch);
  };

  const load = async () => {
    let from = view.state.length;
    if (!view.state.loaded) {
      const first = await client.invoke('sessions.open', { id, limit: PAGE_EVENTS });
      if (stopped) return;
      view.openWindow(first.snapshot, first.events as SessionEvent[], first.start);
      view.markLoaded();
      from = first.next;
    }
    const sub = client.subscribe(`session:${id}`, from, (data) => {
      const transient = transientEventSchema.safeParse(data);
      if (transient.success) {
        deltas.push(transient.data);
        frame ??= requestAnimationFrame(flush);
        return;
      }
      // A durable event may end what the deltas stream (its assistant_message): deltas first.
      flush();
      const snapshot = sessionSnapshotFrameSchema.safeParse(data);
      if (snapshot.success) {
        view.setSnapshot(snapshot.data.snapshot);
        return;
      }
      // Live events come one at a time; the parse guards the projection against a malformed frame.
      const durable = sessionEventSchema.safeParse(data);
      if (durable.success) view.addEvents([durable.data as SessionEvent]);
    });
    unsubscribe = () => sub.unsubscribe();
  };

  load().catch((err: unknown) => {
    if (!stopped) console.error(`session ${id}: could not open`, err);
  });
  return () => {
    flush();
    stopped = true;
    unsubscribe();
  };
}

/** Loads the page of events just before what the session's view holds (scrolling up). */
export async function loadOlderEvents(
  client: Client,
  views: SessionViews,
  id: string,
): Promise<void> {
  const view = views.get(id);
  const base = view.state.base;
  if (base === 0 || view.loadingOlder) return;
  view.loadingOlder = true;
  try {
    const page = await client.invoke('sessions.events', { id, before: base, limit: PAGE_EVENTS });
    view.prependEvents(page.events as SessionEvent[], page.start);
  } finally {
    view.loadingOlder = false;
  }
}

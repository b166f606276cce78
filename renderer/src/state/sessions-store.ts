import { create } from 'zustand';
import type { SessionEvent, TransientEvent } from '../../../shared/protocol/events';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import type { SessionSnapshot } from '../../../shared/protocol/session-snapshot';
import { SessionModel } from './session-model';

export interface SessionView {
  /** Mutable projection; `version` changes whenever it does (that is what components select). */
  model: SessionModel;
  version: number;
  /** Assistant text streaming in, by message id, until its assistant_message lands. */
  streaming: Record<string, { text: string; agentId: string }>;
  /** The first page(s) arrived: the timeline can draw and scroll to the end. */
  loaded: boolean;
  /** Paging: the events held (from `model.base` on) and the host's snapshot before them. */
  events: SessionEvent[];
  snapshot: SessionSnapshot | null;
}

interface SessionsState {
  sessions: SessionSummary[];
  currentId: string | null;
  views: Record<string, SessionView>;
  connected: boolean;
  /** A sessions.create is on its way. */
  creating: boolean;
  setCreating(on: boolean): void;
  setSessions(list: SessionSummary[]): void;
  upsertSession(s: SessionSummary): void;
  removeSession(id: string): void;
  select(id: string | null): void;
  /** Adds durable events in seq order; duplicates (a replay overlapping a page) are ignored. */
  addEvents(id: string, events: readonly SessionEvent[]): void;
  /** The `sessions.open` answer: the snapshot and the newest window, from seq `start`. */
  openWindow(
    id: string,
    snapshot: SessionSnapshot | null,
    events: readonly SessionEvent[],
    start: number,
  ): void;
  /** The topic's snapshot (after its replay): the projection is rebuilt on it. */
  setSnapshot(id: string, snapshot: SessionSnapshot): void;
  /** An older page (seqs `start` .. the view's base - 1): the projection is rebuilt around it. */
  prependEvents(id: string, events: readonly SessionEvent[], start: number): void;
  addTransient(id: string, event: TransientEvent): void;
  /** Several live deltas in one state update (a frame's worth: one render, not one per token). */
  addTransients(id: string, events: readonly TransientEvent[]): void;
  markLoaded(id: string): void;
  /** Drops a session's projection (it reloads from the host when opened again). */
  forget(id: string): void;
  setConnected(c: boolean): void;
}

/** The open session, kept so a reload or a restart reopens it. */
const OPEN_KEY = 'mewbo.ui.session';

function loadOpen(): string | null {
  try {
    return localStorage.getItem(OPEN_KEY);
  } catch {
    return null;
  }
}

function saveOpen(id: string | null): void {
  try {
    if (id) localStorage.setItem(OPEN_KEY, id);
    else localStorage.removeItem(OPEN_KEY);
  } catch {}
}

const emptyView = (): SessionView => ({
  model: new SessionModel(),
  version: 0,
  streaming: {},
  loaded: false,
  events: [],
  snapshot: null,
});

/** A projection from `base`: the snapshot's state first, then the events in order. */
function build(base: number, snapshot: SessionSnapshot | null, events: readonly SessionEvent[]) {
  const model = new SessionModel(base);
  if (snapshot) model.applySnapshot(snapshot);
  for (const e of events) model.apply(e);
  return model;
}

export const useSessions = create<SessionsState>((set) => ({
  sessions: [],
  currentId: loadOpen(),
  views: {},
  connected: false,
  creating: false,
  setCreating: (creating) => set({ creating }),
  setSessions: (sessions) =>
    set((st) => {
      // The full list: a remembered session that is gone (deleted elsewhere) is no longer open.
      const currentId = sessions.some((x) => x.id === st.currentId) ? st.currentId : null;
      if (currentId !== st.currentId) saveOpen(currentId);
      return { sessions: [...sessions].sort((a, b) => b.updated_at - a.updated_at), currentId };
    }),
  upsertSession: (s) =>
    set((st) => {
      const rest = st.sessions.filter((x) => x.id !== s.id);
      return { sessions: [s, ...rest].sort((a, b) => b.updated_at - a.updated_at) };
    }),
  removeSession: (id) =>
    set((st) => {
      const views = { ...st.views };
      delete views[id];
      if (st.currentId === id) saveOpen(null);
      return {
        sessions: st.sessions.filter((x) => x.id !== id),
        currentId: st.currentId === id ? null : st.currentId,
        views,
      };
    }),
  select: (currentId) => {
    saveOpen(currentId);
    set({ currentId });
  },
  addEvents: (id, incoming) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      let changed = false;
      let streaming = view.streaming;
      const events = view.events;
      for (const e of incoming) {
        // A duplicate (replay overlapping live) is dropped; a gap is damage the host reported.
        if (!view.model.apply(e)) continue;
        changed = true;
        events.push(e);
        if (e.type === 'assistant_message' && streaming[e.message_id]) {
          streaming = { ...streaming };
          delete streaming[e.message_id];
        }
        // A finished run leaves no half-streamed text behind (a stop mid-message).
        if (e.type === 'run_state' && e.state !== 'running' && Object.keys(streaming).length)
          streaming = {};
      }
      if (!changed && st.views[id]) return st;
      return { views: { ...st.views, [id]: { ...view, version: view.version + 1, streaming } } };
    }),
  openWindow: (id, snapshot, events, start) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      const held = events.filter((e) => e.seq >= start);
      const model = build(start, snapshot, held);
      return {
        views: {
          ...st.views,
          [id]: {
            ...view,
            model,
            snapshot,
            events: held,
            version: view.version + 1,
          },
        },
      };
    }),
  setSnapshot: (id, snapshot) =>
    set((st) => {
      const view = st.views[id];
      if (!view) return st;
      const model = build(view.model.base, snapshot, view.events);
      return {
        views: { ...st.views, [id]: { ...view, model, snapshot, version: view.version + 1 } },
      };
    }),
  prependEvents: (id, older, start) =>
    set((st) => {
      const view = st.views[id];
      const base = view?.model.base ?? 0;
      if (!view || start >= base) return st;
      // Only the seqs this view lacks, in order (a damaged log may have gaps); a page that does not
      // fit (a duplicate request answered twice) changes nothing.
      const page = older.filter((e) => e.seq >= start && e.seq < base);
      if (page.some((e, i) => i > 0 && e.seq <= page[i - 1]!.seq)) return st;
      const events = [...page, ...view.events];
      const model = build(start, view.snapshot, events);
      return {
        views: { ...st.views, [id]: { ...view, model, events, version: view.version + 1 } },
      };
    }),
  addTransient: (id, e) => useSessions.getState().addTransients(id, [e]),
  addTransients: (id, events) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      const streaming = { ...view.streaming };
      for (const e of events) {
        if (e.type !== 'assistant_delta') continue;
        const prev = streaming[e.message_id];
        streaming[e.message_id] = { text: (prev?.text ?? '') + e.text, agentId: e.agent_id };
      }
      return { views: { ...st.views, [id]: { ...view, streaming } } };
    }),
  markLoaded: (id) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      return { views: { ...st.views, [id]: { ...view, loaded: true, version: view.version + 1 } } };
    }),
  forget: (id) =>
    set((st) => {
      if (!st.views[id]) return st;
      const views = { ...st.views };
      delete views[id];
      return { views };
    }),
  setConnected: (connected) => set({ connected }),
}));

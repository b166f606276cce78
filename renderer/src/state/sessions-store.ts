import { create } from 'zustand';
import type { SessionEvent, TransientEvent } from '../../../shared/protocol/events';
import type { SessionSummary } from '../../../shared/protocol/session-summary';

export interface SessionView {
  events: SessionEvent[];
  /** Assistant text streaming in, by message id, until its assistant_message lands. */
  streaming: Record<string, string>;
}

interface SessionsState {
  sessions: SessionSummary[];
  currentId: string | null;
  views: Record<string, SessionView>;
  connected: boolean;
  setSessions(list: SessionSummary[]): void;
  upsertSession(s: SessionSummary): void;
  removeSession(id: string): void;
  select(id: string | null): void;
  /** Adds durable events in seq order; duplicates (a replay overlapping a page) are ignored. */
  addEvents(id: string, events: SessionEvent[]): void;
  addTransient(id: string, event: TransientEvent): void;
  setConnected(c: boolean): void;
}

const emptyView = (): SessionView => ({ events: [], streaming: {} });

export const useSessions = create<SessionsState>((set) => ({
  sessions: [],
  currentId: null,
  views: {},
  connected: false,
  setSessions: (sessions) => set({ sessions }),
  upsertSession: (s) =>
    set((st) => {
      const rest = st.sessions.filter((x) => x.id !== s.id);
      return { sessions: [s, ...rest].sort((a, b) => b.updated_at - a.updated_at) };
    }),
  removeSession: (id) =>
    set((st) => ({
      sessions: st.sessions.filter((x) => x.id !== id),
      currentId: st.currentId === id ? null : st.currentId,
    })),
  select: (currentId) => set({ currentId }),
  addEvents: (id, incoming) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      const events = view.events.slice();
      const streaming = { ...view.streaming };
      for (const e of incoming) {
        if (e.seq !== events.length) {
          if (e.seq < events.length) continue;
          // A gap means a bug upstream; keep what we have rather than show events out of order.
          console.error(`session ${id}: expected seq ${events.length}, got ${e.seq}`);
          continue;
        }
        events.push(e);
        if (e.type === 'assistant_message') delete streaming[e.message_id];
      }
      return { views: { ...st.views, [id]: { events, streaming } } };
    }),
  addTransient: (id, e) =>
    set((st) => {
      const view = st.views[id] ?? emptyView();
      if (e.type !== 'assistant_delta') return st;
      const streaming = { ...view.streaming, [e.message_id]: (view.streaming[e.message_id] ?? '') + e.text };
      return { views: { ...st.views, [id]: { ...view, streaming } } };
    }),
  setConnected: (connected) => set({ connected }),
}));

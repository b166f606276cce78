import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useAppStores } from './session-views-context';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import type { RemoteLinkState } from '../../../shared/protocol/remote-link';

export interface SessionsState {
  sessions: SessionSummary[];
  /** The host's list has arrived once: until then an empty `sessions` means "not known yet". */
  listed: boolean;
  currentId: string | null;
  connected: boolean;
  /** A sessions.create is on its way. */
  creating: boolean;
  setCreating(on: boolean): void;
  setSessions(list: SessionSummary[]): void;
  upsertSession(s: SessionSummary): void;
  removeSession(id: string): void;
  select(id: string | null): void;
  setConnected(c: boolean): void;
  /** The link of each session on an SSH host the host has told of (the `remote` topic). */
  links: Record<string, RemoteLinkState>;
  setLink(sessionId: string, state: RemoteLinkState): void;
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

export type SessionsStore = StoreApi<SessionsState>;

/** The sessions list and the open session; one per app instance (the composition root's). */
export function createSessionsStore(): SessionsStore {
  return createStore<SessionsState>()((set) => ({
    sessions: [],
    listed: false,
    currentId: loadOpen(),
    connected: false,
    creating: false,
    setCreating: (creating) => set({ creating }),
    setSessions: (sessions) =>
      set((st) => {
        // The full list: a remembered session that is gone (deleted elsewhere) is no longer open.
        const currentId = sessions.some((x) => x.id === st.currentId) ? st.currentId : null;
        if (currentId !== st.currentId) saveOpen(currentId);
        return {
          sessions: [...sessions].sort((a, b) => b.updated_at - a.updated_at),
          listed: true,
          currentId,
        };
      }),
    upsertSession: (s) =>
      set((st) => {
        const rest = st.sessions.filter((x) => x.id !== s.id);
        return { sessions: [s, ...rest].sort((a, b) => b.updated_at - a.updated_at) };
      }),
    removeSession: (id) =>
      set((st) => {
        if (st.currentId === id) saveOpen(null);
        return {
          sessions: st.sessions.filter((x) => x.id !== id),
          currentId: st.currentId === id ? null : st.currentId,
        };
      }),
    select: (currentId) => {
      saveOpen(currentId);
      set({ currentId });
    },
    setConnected: (connected) => set({ connected }),
    links: {},
    setLink: (sessionId, state) => set((st) => ({ links: { ...st.links, [sessionId]: state } })),
  }));
}

/** The part of the app's sessions state that `select` picks (re-renders when it changes). */
export function useSessions<T>(select: (s: SessionsState) => T): T {
  return useStore(useAppStores().sessions, select);
}

/** The app's sessions store itself, for reads and writes outside render (handlers, effects). */
export function useSessionsStore(): SessionsStore {
  return useAppStores().sessions;
}

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useAppStores } from './session-views-context';

// Find in the conversation (Ctrl+F): the bar's query, and the match the timeline brings into
// view. One conversation is open at a time; it resets the find when it closes.

export interface FindTarget {
  /** The message's seq and which of its matches (0-based, in text order). */
  seq: number;
  k: number;
  /** Bumped on every move, so going to the same match again scrolls to it again. */
  n: number;
}

export interface FindState {
  open: boolean;
  query: string;
  target: FindTarget | null;
  /** Opens the bar (Ctrl+F); `focus` is bumped so a second Ctrl+F focuses it again. */
  focus: number;
  show(): void;
  close(): void;
  setQuery(query: string): void;
  goTo(seq: number, k: number): void;
}

export type FindStore = StoreApi<FindState>;

/** The find bar's state; one per app instance. */
export function createFindStore(): FindStore {
  return createStore<FindState>()((set) => ({
    open: false,
    query: '',
    target: null,
    focus: 0,
    show: () => set((st) => ({ open: true, focus: st.focus + 1 })),
    close: () => set({ open: false, query: '', target: null }),
    setQuery: (query) => set({ query, target: null }),
    goTo: (seq, k) => set((st) => ({ target: { seq, k, n: (st.target?.n ?? 0) + 1 } })),
  }));
}

/** The part of the app's find state that `select` picks (re-renders when it changes). */
export function useFind<T>(select: (s: FindState) => T): T {
  return useStore(useAppStores().find, select);
}

/** The app's find store itself, for reads and writes outside render (handlers, effects). */
export function useFindStore(): FindStore {
  return useAppStores().find;
}

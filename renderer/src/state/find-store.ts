import { create } from 'zustand';

// Find in the conversation (Ctrl+F): the bar's query, and the match the timeline brings into
// view. One conversation is open at a time; it resets the find when it closes.

export interface FindTarget {
  /** The message's seq and which of its matches (0-based, in text order). */
  seq: number;
  k: number;
  /** Bumped on every move, so going to the same match again scrolls to it again. */
  n: number;
}

interface FindState {
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

export const useFind = create<FindState>((set) => ({
  open: false,
  query: '',
  target: null,
  focus: 0,
  show: () => set((st) => ({ open: true, focus: st.focus + 1 })),
  close: () => set({ open: false, query: '', target: null }),
  setQuery: (query) => set({ query, target: null }),
  goTo: (seq, k) => set((st) => ({ target: { seq, k, n: (st.target?.n ?? 0) + 1 } })),
}));

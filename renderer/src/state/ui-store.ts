import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useAppStores } from './session-views-context';
import type { ImageWire } from '../../../shared/protocol/events';
import type { PastedText } from '../../../shared/attachments/pasted-text';

// UI-only state: which dialog is open, view preferences. Preferences persist in localStorage
// (the renderer has no other storage and needs none for these).

export type ThemePreference = 'system' | 'light' | 'dark';
export type DiffLayout = 'inline' | 'split';
export type DialogName = 'picker' | 'settings' | 'pair' | 'new-session' | null;

const PREFS_KEY = 'mewbo.ui.prefs';

/** Below this window width the dock starts folded: the conversation needs the width more. */
export const NARROW_WINDOW_PX = 1100;

interface Prefs {
  theme: ThemePreference;
  diffLayout: DiffLayout;
  dockOpen: boolean;
  sidebarOpen: boolean;
  /** A system notification when the agent waits for the user and the window is not focused. */
  notify: boolean;
}

const wide = () => typeof window === 'undefined' || window.innerWidth >= NARROW_WINDOW_PX;

const defaults = (): Prefs => ({
  theme: 'system',
  diffLayout: 'inline',
  dockOpen: wide(),
  sidebarOpen: true,
  notify: true,
});

function loadPrefs(): Prefs {
  try {
    const raw = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Partial<Prefs>;
    return {
      theme: raw.theme === 'light' || raw.theme === 'dark' ? raw.theme : 'system',
      diffLayout: raw.diffLayout === 'split' ? 'split' : 'inline',
      dockOpen: typeof raw.dockOpen === 'boolean' ? raw.dockOpen : wide(),
      sidebarOpen: raw.sidebarOpen !== false,
      notify: raw.notify !== false,
    };
  } catch {
    return defaults();
  }
}

/** A user message as sent: its words, images and pasted texts. */
export interface SentMessage {
  text: string;
  images?: ImageWire[];
  pastes?: PastedText[];
}

export interface ComposerDraft extends SentMessage {
  sessionId: string;
}

export interface UiState extends Prefs {
  dialog: DialogName;
  /** The console the dock shows in front, by shell id. */
  activeConsole: string | null;
  /** Cards the user opened or closed, by item key: survives a row scrolling out of the list. */
  expanded: Record<string, boolean>;
  /**
   * A sent message a row asked its session's message box to take ("Edit and resend"), until
   * that box takes it: a box of another session never does.
   */
  draft: ComposerDraft | null;
  /**
   * Bumped when the person sends into a session (or asks for a new answer): its conversation
   * goes to its end and follows what comes, however far up it was scrolled.
   */
  follow: { sessionId: string; n: number } | null;
  /** The session whose Review (its worktree's diff and actions) shows instead of its conversation. */
  reviewing: string | null;
  setReviewing(sessionId: string | null): void;
  followLatest(sessionId: string): void;
  editInComposer(draft: ComposerDraft): void;
  /** The message box of `sessionId` takes its draft (null when there is none for it). */
  takeDraft(sessionId: string): ComposerDraft | null;
  openDialog(d: DialogName): void;
  closeDialog(): void;
  setTheme(t: ThemePreference): void;
  setDiffLayout(l: DiffLayout): void;
  setDockOpen(open: boolean): void;
  setSidebarOpen(open: boolean): void;
  setNotify(on: boolean): void;
  setActiveConsole(id: string | null): void;
  setExpanded(key: string, open: boolean): void;
}

export type UiStore = StoreApi<UiState>;

/** Dialogs and view preferences; one per app instance (the composition root's). */
export function createUiStore(): UiStore {
  return createStore<UiState>()((set, get) => {
    const save = () => {
      const { theme, diffLayout, dockOpen, sidebarOpen, notify } = get();
      try {
        localStorage.setItem(
          PREFS_KEY,
          JSON.stringify({ theme, diffLayout, dockOpen, sidebarOpen, notify }),
        );
      } catch {}
    };
    return {
      ...loadPrefs(),
      dialog: null,
      draft: null,
      follow: null,
      reviewing: null,
      setReviewing: (reviewing) => set({ reviewing }),
      followLatest: (sessionId) =>
        set((st) => ({ follow: { sessionId, n: (st.follow?.n ?? 0) + 1 } })),
      editInComposer: (draft) => set({ draft }),
      takeDraft: (sessionId) => {
        const { draft } = get();
        if (draft?.sessionId !== sessionId) return null;
        set({ draft: null });
        return draft;
      },
      activeConsole: null,
      expanded: {},
      openDialog: (dialog) => set({ dialog }),
      closeDialog: () => set({ dialog: null }),
      setTheme: (theme) => {
        set({ theme });
        save();
      },
      setDiffLayout: (diffLayout) => {
        set({ diffLayout });
        save();
      },
      setDockOpen: (dockOpen) => {
        set({ dockOpen });
        save();
      },
      setSidebarOpen: (sidebarOpen) => {
        set({ sidebarOpen });
        save();
      },
      setNotify: (notify) => {
        set({ notify });
        save();
      },
      setActiveConsole: (activeConsole) => set({ activeConsole }),
      setExpanded: (key, open) => set((st) => ({ expanded: { ...st.expanded, [key]: open } })),
    };
  });
}

/** The part of the app's UI state that `select` picks (re-renders when it changes). */
export function useUi<T>(select: (s: UiState) => T): T {
  return useStore(useAppStores().ui, select);
}

/** The app's UI store itself, for reads and writes outside render (handlers, effects). */
export function useUiStore(): UiStore {
  return useAppStores().ui;
}

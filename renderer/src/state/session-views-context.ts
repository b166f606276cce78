import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppStores } from './app-stores';
import type { SessionViews, SessionViewState, SessionViewStore } from './session-view-store';

/** The app instance's stores (app-wide and per-session), provided by the composition root. */
export const AppStoresContext = createContext<AppStores | null>(null);

export function useAppStores(): AppStores {
  const stores = useContext(AppStoresContext);
  if (!stores) throw new Error('useAppStores outside AppStoresContext');
  return stores;
}

export function useSessionViews(): SessionViews {
  return useAppStores().views;
}

/** The view store of session `id` (an empty one for null: nothing is open). */
export function useSessionViewStore(id: string | null): SessionViewStore {
  const views = useSessionViews();
  return id ? views.get(id) : views.none;
}

/**
 * The part of session `id`'s view state that `select` picks; the component re-renders only when
 * that part changes (compared with Object.is: select a part, or wrap with useShallow).
 */
export function useSessionView<T>(id: string | null, select: (s: SessionViewState) => T): T {
  return useStore(useSessionViewStore(id).store, select);
}

import { useEffect, useSyncExternalStore } from 'react';
import { useUi } from './state/ui-store';

export type ResolvedTheme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeSystem(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

const systemDark = () => window.matchMedia(DARK_QUERY).matches;

/** The theme in effect: the user's choice, or the system's while the choice is "system". */
export function useResolvedTheme(): ResolvedTheme {
  const pref = useUi((s) => s.theme);
  const dark = useSyncExternalStore(subscribeSystem, systemDark);
  if (pref === 'system') return dark ? 'dark' : 'light';
  return pref;
}

/** Puts the theme on <html data-theme>, which the stylesheet keys every colour on. */
export function useApplyTheme(): ResolvedTheme {
  const theme = useResolvedTheme();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}

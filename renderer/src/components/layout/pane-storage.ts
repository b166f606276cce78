import type { LayoutStorage } from 'react-resizable-panels';

// Pane sizes are remembered per window: this window's own sizes (sessionStorage survives its
// reloads) and, for a window that has none yet, the sizes the last window left (localStorage).

export function paneStorage(session: Storage, local: Storage): LayoutStorage {
  return {
    getItem: (key) => {
      try {
        return session.getItem(key) ?? local.getItem(key);
      } catch {
        return null;
      }
    },
    setItem: (key, value) => {
      try {
        session.setItem(key, value);
        local.setItem(key, value);
      } catch {}
    },
  };
}

// Keyboard shortcuts: Cmd on macOS, Ctrl elsewhere (the same rule the Electron menu follows).

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** "Ctrl+P" or "⌘P". */
export function shortcutLabel(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}

/** Whether a key event is the platform's primary modifier plus `key` (no Alt). */
export function isPrimary(e: KeyboardEvent, key: string): boolean {
  const mod = isMac ? e.metaKey : e.ctrlKey;
  return mod && !e.altKey && e.key.toLowerCase() === key.toLowerCase();
}

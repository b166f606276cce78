// The keys that answer the waiting approval from anywhere in the conversation. Alt with a letter:
// free in text fields (Ctrl+A/D edit text) and in both platforms' menus. Matched by physical key
// so macOS's Option characters (å, ∂) do not get in the way.

export const APPROVE_KEYS = 'Alt+A';
export const DENY_KEYS = 'Alt+D';

export function approvalKey(e: KeyboardEvent): 'allow' | 'deny' | null {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return null;
  if (e.code === 'KeyA') return 'allow';
  if (e.code === 'KeyD') return 'deny';
  return null;
}

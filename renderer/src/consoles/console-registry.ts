import type { ITheme } from '@xterm/xterm';
import type { Client } from '../transport/transport';
import { ConsoleEntry } from './console-entry';
import type { ResolvedTheme } from '../theme';

const THEMES: Record<ResolvedTheme, ITheme> = {
  light: {
    background: '#fbfbfc',
    foreground: '#1f2328',
    cursor: '#1f2328',
    selectionBackground: '#c8d4f7',
  },
  dark: {
    background: '#141417',
    foreground: '#d9d9de',
    cursor: '#d9d9de',
    selectionBackground: '#3a4470',
  },
};

/**
 * Every console's terminal, keyed by session and shell, owned here rather than by components
 * (Hyper's and Tabby's rule): React mounts and unmounts views; terminals and their streams live
 * until their session is closed or the app goes away.
 */
export class ConsoleRegistry {
  private readonly entries = new Map<string, ConsoleEntry>();
  private theme: ResolvedTheme = 'light';
  /** Views holding each session's consoles, and the pending disposal of a released one. */
  private readonly holds = new Map<string, number>();
  private readonly pendingRelease = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly client: Client) {}

  get(sessionId: string, shellId: string): ConsoleEntry {
    const key = `${sessionId}:${shellId}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = new ConsoleEntry(this.client, sessionId, shellId, THEMES[this.theme]);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * A view of the session holds its consoles; when the last hold goes, they are disposed on the
   * next turn unless held again (React's StrictMode unmounts and remounts every effect once).
   */
  retain(sessionId: string): () => void {
    const pending = this.pendingRelease.get(sessionId);
    if (pending) clearTimeout(pending);
    this.pendingRelease.delete(sessionId);
    this.holds.set(sessionId, (this.holds.get(sessionId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(sessionId) ?? 1) - 1;
      if (left > 0) {
        this.holds.set(sessionId, left);
        return;
      }
      this.holds.delete(sessionId);
      this.pendingRelease.set(
        sessionId,
        setTimeout(() => {
          this.pendingRelease.delete(sessionId);
          this.disposeSession(sessionId);
        }, 0),
      );
    };
  }

  /** Drops a session's consoles (switching away or deleting it); reopening replays retained output. */
  disposeSession(sessionId: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.sessionId !== sessionId) continue;
      entry.dispose();
      this.entries.delete(key);
    }
  }

  setTheme(theme: ResolvedTheme): void {
    if (theme === this.theme) return;
    this.theme = theme;
    for (const e of this.entries.values()) e.setTheme(THEMES[theme]);
  }

  dispose(): void {
    for (const t of this.pendingRelease.values()) clearTimeout(t);
    this.pendingRelease.clear();
    for (const e of this.entries.values()) e.dispose();
    this.entries.clear();
  }
}

import { useEffect, useRef } from 'react';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import { useSessions, useSessionsStore } from './sessions-store';
import { useUi } from './ui-store';

// When the agent waits for the person (an approval, a question): the window title says so, the
// session's row says so, and, if the window is not focused, one system notification per wait
// (the browser's Notification API; Electron shows it as a native notification). Off in Settings.

const APP_NAME = 'Mewbo';

export function windowTitle(sessions: readonly SessionSummary[], currentId: string | null): string {
  const waiting = sessions.filter((s) => s.run_state === 'waiting');
  const current = sessions.find((s) => s.id === currentId);
  if (waiting.length) {
    const first = current?.run_state === 'waiting' ? current : waiting[0]!;
    const more = waiting.length > 1 ? ` (+${waiting.length - 1})` : '';
    return `Waiting for you: ${first.title}${more} — ${APP_NAME}`;
  }
  return current ? `${current.title} — ${APP_NAME}` : APP_NAME;
}

/** Asks once, from a user action (browsers ignore a request that no gesture started). */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => {});
}

export function useWaitingSignals(): void {
  const sessions = useSessions((s) => s.sessions);
  const currentId = useSessions((s) => s.currentId);
  const notify = useUi((s) => s.notify);
  const store = useSessionsStore();
  // Sessions whose current wait was already announced (null until the first list: a session that
  // was waiting before the app opened is shown, not announced).
  const announced = useRef<Set<string> | null>(null);

  useEffect(() => {
    document.title = windowTitle(sessions, currentId);
    const waiting = sessions.filter((s) => s.run_state === 'waiting');
    if (!announced.current) {
      if (sessions.length) announced.current = new Set(waiting.map((s) => s.id));
      return;
    }
    const done = announced.current;
    for (const id of [...done]) if (!waiting.some((s) => s.id === id)) done.delete(id);
    for (const s of waiting) {
      if (done.has(s.id)) continue;
      done.add(s.id);
      if (!notify || document.hasFocus()) continue;
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') continue;
      const n = new Notification('The agent is waiting for you', { body: s.title, tag: s.id });
      n.onclick = () => {
        window.focus();
        store.getState().select(s.id);
        n.close();
      };
    }
  }, [sessions, currentId, notify, store]);
}

import { useEffect } from 'react';
import type { Client } from '../transport/transport';

/** A focused window says so again this often; the host forgets a report after a minute. */
export const FOCUS_RENEW_MS = 30_000;

/**
 * Tells the host whether this window has the user's focus, so a phone with remote rights is
 * notified of a new wait only while nobody is looking at the desktop (devices.reportFocus).
 */
export function useFocusReport(client: Client): void {
  useEffect(() => {
    let last: boolean | undefined;
    const report = (force = false) => {
      const focused = document.hasFocus() && document.visibilityState === 'visible';
      if (!force && focused === last) return;
      last = focused;
      client.invoke('devices.reportFocus', { focused }).catch(() => {
        last = undefined; // not connected yet: the next event or renewal tries again
      });
    };
    const onChange = () => report();
    report(true);
    window.addEventListener('focus', onChange);
    window.addEventListener('blur', onChange);
    document.addEventListener('visibilitychange', onChange);
    const renew = setInterval(() => {
      if (last !== false) report(true);
    }, FOCUS_RENEW_MS);
    return () => {
      clearInterval(renew);
      window.removeEventListener('focus', onChange);
      window.removeEventListener('blur', onChange);
      document.removeEventListener('visibilitychange', onChange);
    };
  }, [client]);
}

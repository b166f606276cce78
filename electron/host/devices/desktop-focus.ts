import type { Clock } from './clock';
import { FOCUS_REPORT_TTL_MS } from './constants';

/**
 * Whether any desktop window has the user's focus, as the windows report it (devices.reportFocus).
 * A window re-reports while focused; a report older than the TTL no longer counts, so a window
 * that closed or crashed while focused cannot silence phone notifications for good.
 */
export class DesktopFocus {
  private readonly reports = new Map<string, { focused: boolean; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = FOCUS_REPORT_TTL_MS,
  ) {}

  report(clientId: string, focused: boolean): void {
    if (focused) this.reports.set(clientId, { focused, at: this.clock.now() });
    else this.reports.delete(clientId);
  }

  get focused(): boolean {
    const now = this.clock.now();
    for (const [id, r] of this.reports) {
      if (now - r.at <= this.ttlMs) return true;
      this.reports.delete(id);
    }
    return false;
  }
}

import type { SessionEventBody } from '../../../shared/protocol/events';
import type { Subscription } from '../rpc/router';
import { LATE_EVENTS_KEPT } from './constants';

// What a session's tools emitted on the remote after their call had returned (a background
// shell's `shell_exited`), held until the app has it: the `session:<id>` topic of the remote part
// sends every one held, and an ack (n events) forgets the first n. Whatever a dropped link did not
// get acked is sent again to the next subscriber, so an event reaches the app's log once even
// across reconnects (unless its ack was the last thing the link carried).

export class LateEvents {
  private readonly held = new Map<string, SessionEventBody[]>();
  private readonly sinks = new Map<string, Set<(data: unknown) => void>>();

  push(sessionId: string, event: SessionEventBody): void {
    let list = this.held.get(sessionId);
    if (!list) this.held.set(sessionId, (list = []));
    list.push(event);
    // A session nobody subscribes to any more must not grow without bound: the oldest go.
    if (list.length > LATE_EVENTS_KEPT) list.splice(0, list.length - LATE_EVENTS_KEPT);
    for (const sink of this.sinks.get(sessionId) ?? []) sink({ event });
  }

  subscribe(sessionId: string, sink: (data: unknown) => void): Subscription {
    let sinks = this.sinks.get(sessionId);
    if (!sinks) this.sinks.set(sessionId, (sinks = new Set()));
    sinks.add(sink);
    for (const event of this.held.get(sessionId) ?? []) sink({ event });
    return {
      ack: (n) => {
        const list = this.held.get(sessionId);
        if (list && Number.isInteger(n) && n > 0) list.splice(0, n);
      },
      dispose: () => void sinks.delete(sink),
    };
  }
}

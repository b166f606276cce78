import type { SessionManager } from '../sessions/session-manager';
import type { TopicProvider } from '../rpc/router';
import { toDisposable } from '../lifecycle/disposable';

/** `session:<id>`: replay from the cursor, then live durable and transient events. */
export function sessionTopic(sessions: SessionManager): TopicProvider {
  return async (id, cursor, sink) => {
    return sessions.watch(id, cursor ?? 0, sink);
  };
}

/** `sessions`: the list as it changes (created, renamed, run state, deleted). */
export function sessionsTopic(sessions: SessionManager): TopicProvider {
  return async (_rest, _cursor, sink) => {
    const sub = sessions.onDidChange(sink);
    return toDisposable(() => sub.dispose());
  };
}

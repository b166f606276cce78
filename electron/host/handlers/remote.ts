import { toDisposable } from '../lifecycle/disposable';
import type { TopicProvider } from '../rpc/router';
import type { RemoteSessions } from '../remote/remote-sessions';

/** `remote`: the link state of every session that worked on an SSH host, then each change. */
export function remoteLinkTopic(remote: RemoteSessions): TopicProvider {
  return async (_rest, _cursor, sink) => {
    for (const frame of remote.links()) sink(frame);
    const sub = remote.onDidChangeLink((frame) => sink(frame));
    return toDisposable(() => sub.dispose());
  };
}

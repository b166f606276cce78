import { RemoteCheckpointSite } from '../remote/remote-checkpoint-site';
import type { RemoteSessions } from '../remote/remote-sessions';
import { HostError } from '../rpc/host-error';
import type { Session } from '../sessions/session';
import { LocalCheckpointSite, type CheckpointSite } from './checkpoint-site';
import type { CheckpointStore } from './checkpoint-store';

// Which site holds a session's checkpoints: its SSH host's remote part for a session whose project
// is there (meta.remote; its root is a path on that host, never looked at here), this machine's
// store otherwise.

export interface CheckpointSitesOptions {
  store: CheckpointStore;
  /** null where remote projects cannot be reached (nothing to connect with). */
  remote: RemoteSessions | null;
  maxFileBytes(): number;
}

export function checkpointSites(
  opts: CheckpointSitesOptions,
): (session: Session, root: string) => CheckpointSite {
  return (session, root) => {
    const url = session.meta.remote;
    if (!url) return new LocalCheckpointSite(opts.store.forRoot(root));
    const remote = opts.remote;
    if (!remote)
      throw new HostError(
        'remote_unavailable',
        `this session's project is on ${url}, and nothing here connects to it`,
      );
    return new RemoteCheckpointSite(() => remote.hostFor(url), root, opts.maxFileBytes());
  };
}

import { LocalCheckpointSite } from '../checkpoints/checkpoint-site';
import { CheckpointStore } from '../checkpoints/checkpoint-store';
import type { HandlerMapOf } from '../rpc/router';
import type { checkpointCommands } from './checkpoint-commands';
import { REMOTE_STORE_MAX_FILE_BYTES } from './constants';

// The remote part's side of a remote session's checkpoints: the same store and restore code a
// local project uses, run here, on the host's git (resolved when the remote part started, hooks
// off: projects/host-git.ts), with the store under this remote part's own $MEWBO_HOME.

export function remoteCheckpointHandlers(
  checkpointsDir: string,
): HandlerMapOf<typeof checkpointCommands> {
  const store = new CheckpointStore({
    dir: checkpointsDir,
    maxFileBytes: REMOTE_STORE_MAX_FILE_BYTES,
  });
  const site = (root: string) => new LocalCheckpointSite(store.forRoot(root));
  return {
    'checkpoints.ensureRoot': async (req) => {
      await site(req.root).ensureRoot();
      return {};
    },
    'checkpoints.snapshot': (req) =>
      store.forRoot(req.root).snapshot(req.label, req.max_file_bytes),
    'checkpoints.verify': async (req) => {
      await site(req.root).verify(req.commit);
      return {};
    },
    'checkpoints.diff': async (req) => ({ changes: await site(req.root).diff(req.from, req.to) }),
    'checkpoints.restore': async (req) => {
      await site(req.root).restore(req.changes, new Set(req.only));
      return {};
    },
  };
}

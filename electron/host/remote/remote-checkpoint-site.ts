import type { CheckpointSite } from '../checkpoints/checkpoint-site';
import type { Snapshot, TreeChange } from '../checkpoints/checkpoint-store';
import type { RemoteHost } from './remote-host';

// The checkpoints of a session whose project is on an SSH host, as the app sees them: every step
// (snapshot, verify, diff, restore) runs in the remote part (remote-checkpoint-handlers.ts), so
// the store and the files stay on the host and only commit ids and paths cross the link.

export class RemoteCheckpointSite implements CheckpointSite {
  constructor(
    private readonly host: () => Promise<RemoteHost>,
    readonly root: string,
    /** The app's config.checkpoints.max_file_bytes: the limit is the user's, not the host's. */
    private readonly maxFileBytes: number,
  ) {}

  async ensureRoot(): Promise<void> {
    await (await this.host()).invoke('checkpoints.ensureRoot', { root: this.root });
  }

  async snapshot(label: string): Promise<Snapshot> {
    return (await this.host()).invoke('checkpoints.snapshot', {
      root: this.root,
      label,
      max_file_bytes: this.maxFileBytes,
    });
  }

  async verify(commit: string): Promise<void> {
    await (await this.host()).invoke('checkpoints.verify', { root: this.root, commit });
  }

  async diff(from: string, to: string): Promise<TreeChange[]> {
    return (await (await this.host()).invoke('checkpoints.diff', { root: this.root, from, to }))
      .changes;
  }

  async restore(changes: readonly TreeChange[], only: ReadonlySet<string>): Promise<void> {
    await (
      await this.host()
    ).invoke('checkpoints.restore', {
      root: this.root,
      changes: changes.filter((c) => only.has(c.path)),
      only: [...only],
    });
  }
}

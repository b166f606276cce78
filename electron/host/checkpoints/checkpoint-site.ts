import { stat } from 'node:fs/promises';
import { HostError } from '../rpc/host-error';
import type { ProjectCheckpoints, Snapshot, TreeChange } from './checkpoint-store';
import { applyRestore, type RestorePlan } from './restore';

// Where one project's checkpoints are taken and restored: its shadow store and its files, in the
// same place. A local folder's are here (LocalCheckpointSite); a project on an SSH host has
// them on that host, in the remote part (remote/remote-checkpoint-site.ts), whose code is this
// same class there. SessionCheckpoints decides what to snapshot and rewind; a site does it.

export interface CheckpointSite {
  /** The project's folder, on the machine the site is on. */
  readonly root: string;
  /** Throws HostError project_missing when the folder is gone. */
  ensureRoot(): Promise<void>;
  snapshot(label: string): Promise<Snapshot>;
  verify(commit: string): Promise<void>;
  diff(from: string, to: string): Promise<TreeChange[]>;
  /** Puts the paths of `changes` named in `only` back as the diff's `to` side has them. */
  restore(changes: readonly TreeChange[], only: ReadonlySet<string>): Promise<void>;
}

export class LocalCheckpointSite implements CheckpointSite {
  constructor(private readonly project: ProjectCheckpoints) {}

  get root(): string {
    return this.project.root;
  }

  async ensureRoot(): Promise<void> {
    const st = await stat(this.root).catch(() => null);
    if (!st?.isDirectory())
      throw new HostError('project_missing', `the project folder ${this.root} no longer exists`);
  }

  snapshot(label: string): Promise<Snapshot> {
    return this.project.snapshot(label);
  }

  verify(commit: string): Promise<void> {
    return this.project.verify(commit);
  }

  diff(from: string, to: string): Promise<TreeChange[]> {
    return this.project.diff(from, to);
  }

  async restore(changes: readonly TreeChange[], only: ReadonlySet<string>): Promise<void> {
    const picked = changes.filter((c) => only.has(c.path));
    // Submodules (160000) are listed, never written: their content is another repository.
    const writes = picked.filter((c) => c.to && c.to.mode !== '160000');
    const blobs = await this.project.readBlobs(writes.map((c) => c.to!.sha));
    const plan: RestorePlan = {
      writes: writes.map((c) => ({ path: c.path, mode: c.to!.mode, data: blobs.get(c.to!.sha)! })),
      deletes: picked.filter((c) => c.status === 'D').map((c) => c.path),
    };
    await applyRestore(this.root, plan);
  }
}

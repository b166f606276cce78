import { z } from 'zod';
import { command } from '../../../shared/protocol/command';

// The remote part's checkpoint commands (issue #29 part 3): a session on a project on an SSH host
// has its shadow store on that host (under the remote part's own $MEWBO_HOME), taken and
// restored there with the host's git, so the project's files never cross the link for it. The
// app decides when to snapshot and what a rewind restores (checkpoints/session-checkpoints.ts);
// these run one step of it there (checkpoints/checkpoint-site.ts).

const root = z.string().min(1);
const commit = z.string().regex(/^[0-9a-f]{40,64}$/, 'a commit id');

const snapshotSchema = z.object({
  commit: z.string(),
  tree: z.string(),
  large: z.array(z.object({ path: z.string(), size: z.number() })),
});

const treeChangeSchema = z.object({
  path: z.string(),
  status: z.enum(['A', 'D', 'M']),
  to: z.object({ mode: z.string(), sha: z.string() }).optional(),
});

export const checkpointCommands = {
  /** Throws project_missing when the folder is not there. */
  'checkpoints.ensureRoot': command(
    () => z.object({ root }),
    () => z.object({}),
  ),
  'checkpoints.snapshot': command(
    () => z.object({ root, label: z.string(), max_file_bytes: z.number().int().nonnegative() }),
    () => snapshotSchema,
  ),
  'checkpoints.verify': command(
    () => z.object({ root, commit }),
    () => z.object({}),
  ),
  'checkpoints.diff': command(
    () => z.object({ root, from: commit, to: commit }),
    () => z.object({ changes: z.array(treeChangeSchema) }),
  ),
  'checkpoints.restore': command(
    () => z.object({ root, changes: z.array(treeChangeSchema), only: z.array(z.string()) }),
    () => z.object({}),
  ),
};

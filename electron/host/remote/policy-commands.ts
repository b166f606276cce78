import { z } from 'zod';
import { command } from '../../../shared/protocol/command';

// A project's policy files on an SSH host (project-policy-files.ts): read there at the app's
// request, before each use, and copied into the app, which alone decides what is trusted.

export const policyCommands = {
  /** The policy files `root` holds now on the host. */
  'project.policyFiles': command(
    () => z.object({ root: z.string().min(1) }),
    () => z.object({ files: z.array(z.object({ path: z.string(), text: z.string() })) }),
  ),
};

import { z } from 'zod';
import { command } from '../../../shared/protocol/command';

// The remote part's git status of a project's folder (issue #29 part 3): the branch, the origin
// and the files not committed, read there by the host's git, so the picker and the header show a
// remote project's git state as they do a local one's, and no git runs on this computer for it.

export const folderGitSchema = z.object({
  /** Short branch name; null when detached. */
  branch: z.string().nullable(),
  /** The origin remote's URL, when there is one. */
  origin: z.string().nullable(),
  /** Files not committed: changed, staged, deleted or untracked (ignored ones not). */
  changed_files: z.number().int().min(0),
});
export type FolderGit = z.infer<typeof folderGitSchema>;

export const gitCommands = {
  /** null: the folder is not in a git repository (or git could not read it in time). */
  'git.state': command(
    () => z.object({ root: z.string().min(1) }),
    () => z.object({ git: folderGitSchema.nullable() }),
  ),
};

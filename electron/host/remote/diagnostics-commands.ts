import { z } from 'zod';
import { command } from '../../../shared/protocol/command';

// Passive diagnostics of a session on a project on an SSH host (issue #29 part 3): after an edit
// there, the app asks the remote part, whose language servers run beside the files (in the
// session's tool context, the one lsp_tool uses), for the note the model reads next.

export const diagnosticsCommands = {
  /** The note after an edit of `files` (root-relative or absolute there); null: nothing to say. */
  'lsp.diagnosticsAfterEdit': command(
    () => z.object({ session_id: z.string(), root: z.string().min(1), files: z.array(z.string()) }),
    () =>
      z.object({
        note: z.object({ text: z.string(), errors: z.number(), warnings: z.number() }).nullable(),
      }),
  ),
};

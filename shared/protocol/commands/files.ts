import { z } from 'zod';
import { command } from '../command';

/** Files one search returns at most (the `@` menu shows a screenful). */
export const FILES_SEARCH_MAX = 50;

export const fileCommands = {
  /**
   * The session's project files best matching `query` (fuzzy), for the composer's `@` menu: the
   * files list_dir would list (.gitignore honoured, inside the root). A session with no project
   * has none (`root` null).
   */
  'files.search': command(
    z.object({
      id: z.string().min(1),
      query: z.string().max(500).default(''),
      limit: z.number().int().min(1).max(FILES_SEARCH_MAX).default(20),
    }),
    z.object({ files: z.array(z.string()), total: z.number(), root: z.string().nullable() }),
  ),
};

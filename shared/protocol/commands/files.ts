import { z } from 'zod';
import { command } from '../command';

/** Files one search returns at most (the `@` menu shows a screenful). */
export const FILES_SEARCH_MAX = 50;

export const fileCommands = {
  /**
   * The session's project files best matching `query` (fuzzy), for the composer's `@` menu: the
   * files list_dir would list (.gitignore honoured, inside the root). A session with no project
   * has none (`root` null), though it may have MCP resources.
   */
  'files.search': command(
    () =>
      z.object({
        id: z.string().min(1),
        query: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(FILES_SEARCH_MAX).default(20),
      }),
    () =>
      z.object({
        files: z.array(z.string()),
        total: z.number(),
        root: z.string().nullable(),
        /**
         * Resources of the MCP servers the session can use whose name or URI matches: `ref` is
         * what follows the `@` (`server:uri`); the host reads it with resources/read at send time.
         */
        resources: z
          .array(
            z.object({
              ref: z.string(),
              name: z.string(),
              server: z.string(),
              description: z.string().nullable(),
            }),
          )
          .default([]),
      }),
  ),
};

import { z } from 'zod';

// A mistake found in a config file: shown in Settings and printed on stderr. A warning changes
// nothing (an unknown key is ignored); an error means the key took its default.

export const configProblemSchema = z.object({
  level: z.enum(['warning', 'error']),
  /** The file, as the user knows it (configs/app.json under $MEWBO_HOME). */
  file: z.string(),
  /** Dotted key ("agent.shell_sandbox"), or "(file)" for the file as a whole. */
  key: z.string(),
  /** One line naming the file, the key and what was expected. */
  message: z.string(),
});
export type ConfigProblem = z.infer<typeof configProblemSchema>;

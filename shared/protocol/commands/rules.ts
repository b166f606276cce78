import { z } from 'zod';
import { command } from '../command';

// Issue 20 in Settings and the composer: the permission rules in force by scope (with the file
// and line each came from), the skills and slash commands and where they came from, and what is
// wrong in those files. `rules.remove` takes a rule out of its scope.

const scope = z.enum(['session', 'project', 'user']);
const kind = z.enum(['allow', 'ask', 'deny']);

export const ruleViewSchema = z.object({
  kind,
  rule: z.string(),
  scope,
  /** The settings file it is written in (none for a session rule). */
  file: z.string().optional(),
  line: z.number().int().optional(),
  /** The project it belongs to (project scope). */
  root: z.string().optional(),
  session_id: z.string().optional(),
});

const originSchema = z.object({
  name: z.string(),
  description: z.string(),
  scope: z.enum(['user', 'project']),
  file: z.string(),
});

export const warningViewSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  message: z.string(),
});

export const rulesOverviewSchema = z.object({
  rules: z.array(ruleViewSchema),
  skills: z.array(originSchema),
  commands: z.array(originSchema),
  warnings: z.array(warningViewSchema),
});
export type RulesOverview = z.infer<typeof rulesOverviewSchema>;

export const slashEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  argument_hint: z.string().optional(),
  /** `prompt`: a connected MCP server's prompt, named `server:prompt` (`file` is the server). */
  kind: z.enum(['command', 'skill', 'prompt']),
  scope: z.enum(['user', 'project']),
  file: z.string(),
});

export const rulesCommands = {
  /** Everything in force for the user's own scope, every trusted project the app knows, and live sessions. */
  'rules.overview': command(
    () => z.object({}),
    () => rulesOverviewSchema,
  ),
  'rules.remove': command(
    () =>
      z.object({
        kind,
        rule: z.string().min(1),
        scope,
        root: z.string().optional(),
        file: z.string().optional(),
        session_id: z.string().optional(),
      }),
    () => rulesOverviewSchema,
  ),
  /** The /name commands and skills a session's composer can offer. */
  'commands.list': command(
    () => z.object({ id: z.string().min(1) }),
    () => z.object({ commands: z.array(slashEntrySchema) }),
  ),
};

import { z } from 'zod';
import { command } from '../command';

// Workspace trust: which project directories the host may start things from (their `.mcp.json`
// servers, language servers under the project, hooks). Untrusted projects stay usable: sessions
// and confined shells run; only those things wait.

export const trustedProjectSchema = z.object({
  /** A real, absolute directory; what is inside it is trusted too. */
  path: z.string(),
  /** configs/app.json `projects.<key>.trusted`, its `trusted_projects` list, or `mewbo run --trust`. */
  source: z.enum(['config', 'list', 'run']),
  /** The configured project's key when source is config. */
  project: z.string().nullable(),
});
export type TrustedProject = z.infer<typeof trustedProjectSchema>;

/** One thing trusting a project would start or run. */
export const trustItemSchema = z.object({
  kind: z.enum(['mcp_server', 'language_server', 'hook']),
  name: z.string(),
  /** The command line (or URL) it would run, as the project states it. */
  detail: z.string(),
});
export type TrustItem = z.infer<typeof trustItemSchema>;

/**
 * A file the host obeys or runs (settings, `.mcp.json`) that changed or appeared since the user
 * trusted the project: nothing from it is used until the project is trusted again.
 */
export const contentChangeSchema = z.object({
  /** Relative to the project root, e.g. `.mewbo/settings.json`. */
  file: z.string(),
  state: z.enum(['changed', 'added']),
  /** Unified diff from the trusted text to the current one. */
  diff: z.string(),
});
export type ContentChange = z.infer<typeof contentChangeSchema>;

export const trustStatusSchema = z.object({
  path: z.string(),
  trusted: z.boolean(),
  /** What trusting would start; empty when the project asks for nothing. */
  would_start: z.array(trustItemSchema),
  /** Trusted, but these files changed since: trusting again (trust.grant) accepts the change. */
  changed: z.array(contentChangeSchema),
});
export type TrustStatus = z.infer<typeof trustStatusSchema>;

const listResponse = z.object({ projects: z.array(trustedProjectSchema) });
const pathRequest = z.object({ path: z.string().min(1) });

export const trustCommands = {
  'trust.list': command(
    () => z.object({}),
    () => listResponse,
  ),
  'trust.status': command(
    () => pathRequest,
    () => trustStatusSchema,
  ),
  'trust.grant': command(
    () => pathRequest,
    () => listResponse,
  ),
  'trust.revoke': command(
    () => pathRequest,
    () => listResponse,
  ),
};

/** The `trust` topic: the whole list after every change. */
export const trustTopicSchema = z.object({ type: z.literal('trust'), ...listResponse.shape });

import { z } from 'zod';
import { command } from '../command';

export const projectKindSchema = z.enum([
  'configured',
  'managed',
  'worktree',
  'repository',
  'remote',
]);
export type ProjectKind = z.infer<typeof projectKindSchema>;

/**
 * A remote project's link, as the remote part (electron/host/remote/) reports it for its host;
 * never probed by a scan. `reconnecting`: the link dropped and the app is trying again (the
 * host's shells keep running meanwhile).
 */
export const remoteConnectionStateSchema = z.enum([
  'disconnected',
  'connecting',
  'reconnecting',
  'connected',
]);
export type RemoteConnectionState = z.infer<typeof remoteConnectionStateSchema>;

/**
 * Why the last connection to a remote project's host stopped at its host key (strict checking):
 * not in known_hosts yet, or different from the one there. `fingerprint` is what the host offered
 * (`SHA256:...`), null when it could not be read; the picker shows it for the user to compare.
 */
export const hostKeyRefusalSchema = z.object({
  problem: z.enum(['unknown', 'changed']),
  host: z.string(),
  port: z.number().int(),
  fingerprint: z.string().nullable(),
  /** The host as the project names it (`ssh://[user@]host[:port]/`): what the accept command takes. */
  destination: z.string(),
});
export type HostKeyRefusal = z.infer<typeof hostKeyRefusalSchema>;

/** Where a remote project lives (issue #29): its canonical ssh:// URL and the parts of it. */
export const remoteLocationSchema = z.object({
  url: z.string(),
  /** A host name, an address, or an alias of the user's ~/.ssh/config. */
  host: z.string(),
  user: z.string().nullable(),
  port: z.number().int().nullable(),
  /** The absolute folder on the host. */
  path: z.string(),
  state: remoteConnectionStateSchema,
  /** Set while the host's key stops the connection; cleared by the next state the remote part sets. */
  host_key: hostKeyRefusalSchema.nullable(),
  /**
   * Files not committed in the folder (untracked ones too), as the host's git counted them when
   * its link connected or a session's run there last stopped; null: not read yet, or no repository.
   */
  changed_files: z.number().int().nullable(),
});
export type RemoteLocation = z.infer<typeof remoteLocationSchema>;

/** One project as list_projects and the picker show it (seed fields plus path and recency). */
export const projectEntrySchema = z.object({
  /** configured: the key in configs/app.json; `managed:<id>`, `repo:<id>`, `worktree:<id>` otherwise. */
  key: z.string(),
  name: z.string(),
  kind: projectKindSchema,
  description: z.string(),
  /** Absolute local folder; null for a registered repository without a checkout and for a remote project. */
  path: z.string().nullable(),
  /** The folder exists now (false: vanished, not checked out, or on a disk that did not answer); a remote project: connected. */
  available: z.boolean(),
  /** `owner/name` from the origin remote, when known. */
  repo: z.string().nullable(),
  branch: z.string().nullable(),
  /** A worktree's repository entry. */
  parent: z.string().nullable(),
  last_opened_at: z.number().nullable(),
  /** Set for a project on an SSH host (kind `remote`), null for every local one. */
  remote: remoteLocationSchema.nullable(),
});
export type ProjectEntry = z.infer<typeof projectEntrySchema>;

const key = z.string().min(1);
const absPath = z.string().refine((p) => p.startsWith('/'), 'must be an absolute path');
const listing = z.object({ projects: z.array(projectEntrySchema), recent: z.array(z.string()) });
const one = z.object({ project: projectEntrySchema });

export const projectCommands = {
  /** Every project and the recently opened keys, newest first (live changes: the `projects` topic). */
  'projects.list': command(
    () => z.object({ refresh: z.boolean().default(false) }),
    () => listing,
  ),
  /** Opens a folder from the picker as a managed project (an already registered folder returns its entry). */
  'projects.openFolder': command(
    () =>
      z.object({
        path: absPath,
        name: z.string().trim().min(1).max(200).optional(),
        description: z.string().max(2000).optional(),
      }),
    () => one,
  ),
  /**
   * The picker's path completion: the folders whose name starts with what follows the last `/`
   * of `path` (an absolute path being typed), at most 50, by name.
   */
  'projects.completeFolder': command(
    () => z.object({ path: absPath }),
    () => z.object({ folders: z.array(z.string()), truncated: z.boolean() }),
  ),
  /**
   * Registers a folder on an SSH host, `ssh://[user@]host[:port]/absolute/path` or
   * `ssh://ALIAS/path` (an already registered URL returns its entry); nothing is contacted.
   */
  'projects.addRemote': command(
    () =>
      z.object({
        url: z.string().min(1),
        name: z.string().trim().min(1).max(200).optional(),
      }),
    () => one,
  ),
  /** The Host aliases of the user's ~/.ssh/config (patterns left out), for "Connect to host...". */
  'projects.sshHosts': command(
    () => z.object({}),
    () => z.object({ hosts: z.array(z.string()) }),
  ),
  /** Creates a new folder (optionally `git init`) and registers it as a managed project. */
  'projects.create': command(
    () =>
      z.object({
        parent: absPath,
        name: z.string().trim().min(1).max(200),
        git_init: z.boolean().default(false),
      }),
    () => one,
  ),
  /** Registers a git repository: a local checkout (`path`) or only its URL (no checkout yet). */
  'projects.addRepository': command(
    () =>
      z
        .object({
          path: absPath.optional(),
          url: z.string().min(1).optional(),
          name: z.string().trim().min(1).max(200).optional(),
        })
        .refine((r) => r.path || r.url, 'give path or url'),
    () => one,
  ),
  /** Clones a registered repository that has no checkout. */
  'projects.checkout': command(
    () => z.object({ project: key, path: absPath.optional() }),
    () => one,
  ),
  /** Forgets a managed project or a repository (its files stay); configured ones live in configs/app.json. */
  'projects.remove': command(
    () => z.object({ project: key }),
    () => z.object({ ok: z.literal(true) }),
  ),
  'projects.rename': command(
    () => z.object({ project: key, name: z.string().trim().min(1).max(200) }),
    () => one,
  ),
  /** Marks a project opened (recent list) after checking it is there. */
  'projects.open': command(
    () => z.object({ project: key }),
    () => one,
  ),
  /** `git worktree add` for a repository-backed project; a new branch unless `branch` exists. */
  'projects.createWorktree': command(
    () =>
      z.object({
        project: key,
        branch: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^[^\s~^:?*[\\]+$/, 'not a valid branch name'),
        path: absPath.optional(),
        base: z.string().min(1).optional(),
      }),
    () => one,
  ),
};

import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonOr, writeJsonAtomic } from '../store/atomic-json';
import { REGISTRY_FILE } from './constants';

// What the registry remembers across restarts ($MEWBO_HOME/state/projects.json). Configured
// projects live in configs/app.json and worktrees come from git, so only managed projects,
// repositories, display-name overrides and open times are stored here.

const managedSchema = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  description: z.string().default(''),
  added_at: z.number(),
});
const repositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string().nullable(),
  /** null until checked out. */
  path: z.string().nullable(),
  description: z.string().default(''),
  added_at: z.number(),
});
/** A folder on an SSH host, by its canonical ssh:// URL (electron/host/remote/ssh-url.ts). */
const remoteSchema = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  description: z.string().default(''),
  added_at: z.number(),
});
export const registryStateSchema = z.object({
  version: z.literal(1).default(1),
  managed: z.array(managedSchema).default([]),
  repositories: z.array(repositorySchema).default([]),
  remotes: z.array(remoteSchema).default([]),
  /** Display names set with rename, by key (any kind). */
  names: z.record(z.string(), z.string()).default({}),
  /** Last time each key was opened (ms), for the picker's recent list. */
  opened: z.record(z.string(), z.number()).default({}),
});
export type RegistryState = z.infer<typeof registryStateSchema>;
export type ManagedRecord = z.infer<typeof managedSchema>;
export type RepositoryRecord = z.infer<typeof repositorySchema>;

export function registryFile(stateDir: string): string {
  return join(stateDir, REGISTRY_FILE);
}

/**
 * Loads the state; a file that does not parse is moved aside (kept for the user, named in the
 * log) rather than overwritten, and the registry starts empty.
 */
export async function loadRegistryState(stateDir: string): Promise<RegistryState> {
  const file = registryFile(stateDir);
  let raw: unknown;
  try {
    raw = await readJsonOr(file, {});
  } catch (err) {
    return quarantine(file, `not valid JSON: ${(err as Error).message}`);
  }
  const parsed = registryStateSchema.safeParse(raw);
  if (!parsed.success)
    return quarantine(
      file,
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  return parsed.data;
}

async function quarantine(file: string, why: string): Promise<RegistryState> {
  const aside = `${file}.corrupt-${Date.now()}`;
  await rename(file, aside).catch(() => {});
  console.warn(`[projects] ${file}: ${why}; moved to ${aside}, starting with an empty registry`);
  return registryStateSchema.parse({});
}

export function saveRegistryState(stateDir: string, state: RegistryState): Promise<void> {
  return writeJsonAtomic(registryFile(stateDir), state);
}

/** A readable id unique among `taken`: `my-app`, then `my-app-2`. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const slug = slugify(base);
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'project'
  );
}

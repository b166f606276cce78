import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ConfigError, parseConfig } from '../config/load-config';
import type { AppConfig } from '../config/schema';

// The only place workspace trust touches configs/app.json: `projects.<key>.trusted` and
// `trusted_projects`. Everything else in the file is kept as written. When the ConfigStore owns
// the file, this one function becomes a call to it.

/** The trust keys as the file holds them. */
export interface TrustKeys {
  /** Configured project key -> its `trusted` flag (undefined when absent). */
  flags: Record<string, boolean | undefined>;
  /** `trusted_projects`, as written. */
  list: string[];
}

export function trustKeysOf(config: AppConfig): TrustKeys {
  return {
    flags: Object.fromEntries(Object.entries(config.projects).map(([k, p]) => [k, p.trusted])),
    list: [...config.trusted_projects],
  };
}

/**
 * Reads the file, lets `mutate` change its trust keys, validates the whole file and writes it
 * atomically. Returns the keys as written. Callers serialize (WorkspaceTrust keeps one queue).
 */
export async function writeTrustKeys(
  file: string,
  mutate: (keys: TrustKeys) => void,
): Promise<TrustKeys> {
  let raw: Record<string, unknown> = {};
  try {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!json || typeof json !== 'object' || Array.isArray(json))
      throw new ConfigError(`${file}: must hold a JSON object`);
    raw = json as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const current = parseConfig(raw, file);
  const keys = trustKeysOf(current);
  mutate(keys);
  const projects = { ...((raw.projects as Record<string, Record<string, unknown>>) ?? {}) };
  for (const [key, flag] of Object.entries(keys.flags)) {
    if (!projects[key]) continue;
    const entry = { ...projects[key] };
    if (flag === undefined) delete entry.trusted;
    else entry.trusted = flag;
    projects[key] = entry;
  }
  const next: Record<string, unknown> = { ...raw, trusted_projects: keys.list };
  if (raw.projects !== undefined) next.projects = projects;
  parseConfig(next, file);
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  return keys;
}

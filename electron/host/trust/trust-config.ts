import type { ConfigStore } from '../config/config-store';
import { isObject, validateConfig } from '../config/read-config';
import type { AppConfig } from '../config/schema';

// The only place workspace trust touches configs/app.json: `projects.<key>.trusted` and
// `trusted_projects`. Everything else in the file is kept as written; the write goes through the
// ConfigStore, the file's one owner.

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
 * Lets `mutate` change the trust keys of the file as it is on disk now, through the ConfigStore
 * (one queue, validated, atomic; every other key kept as written). Returns the keys as written.
 */
export async function writeTrustKeys(
  store: ConfigStore,
  mutate: (keys: TrustKeys) => void,
): Promise<TrustKeys> {
  let keys!: TrustKeys;
  await store.update((raw) => {
    keys = trustKeysOf(validateConfig(raw, store.file).config);
    mutate(keys);
    const projects = isObject(raw.projects) ? { ...raw.projects } : undefined;
    for (const [key, flag] of Object.entries(keys.flags)) {
      const entry = projects?.[key];
      if (!projects || !isObject(entry)) continue;
      const next = { ...entry };
      if (flag === undefined) delete next.trusted;
      else next.trusted = flag;
      projects[key] = next;
    }
    raw.trusted_projects = keys.list;
    if (projects) raw.projects = projects;
  });
  return keys;
}

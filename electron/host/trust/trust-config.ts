import { isObject } from '../../../shared/is-object';
import type { AppConfig } from '../config/schema';

// The trust keys of configs/app.json, `projects.<key>.trusted` and `trusted_projects`, as edits
// of the file's own JSON. The ConfigStore applies them (one queue, atomic, re-read first), so
// every other key stays as the user wrote it.

/** What WorkspaceTrust needs of the config's owner (ConfigStore fits). */
export interface TrustConfigSource {
  /** The live config: hand edits of the file show here. */
  readonly config: AppConfig;
  update(mutate: (raw: Record<string, unknown>) => void): Promise<unknown>;
}

/** Sets (true) or removes (undefined) a configured project's `trusted` flag. */
export function setProjectFlag(
  raw: Record<string, unknown>,
  key: string,
  trusted: true | undefined,
): void {
  if (!isObject(raw.projects) || !isObject(raw.projects[key])) return;
  const entry = { ...raw.projects[key] };
  if (trusted === undefined) delete entry.trusted;
  else entry.trusted = trusted;
  raw.projects = { ...raw.projects, [key]: entry };
}

/** `trusted_projects` with `path` added (once) or removed; `same` compares spellings. */
export function editTrustedList(
  raw: Record<string, unknown>,
  path: string,
  add: boolean,
  same: (a: string) => boolean,
): void {
  const list = Array.isArray(raw.trusted_projects)
    ? raw.trusted_projects.filter((p): p is string => typeof p === 'string')
    : [];
  const rest = list.filter((p) => !same(p));
  raw.trusted_projects = add ? [...rest, path] : rest;
}

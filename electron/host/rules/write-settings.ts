import { type SettingsFiles } from '../fs/settings-file';
import type { RuleKind } from './rule';

// Adds or removes one permission rule in a settings file (configs/app.json through its
// ConfigStore, or a project's .mewbo/settings.json through SettingsFiles: verified descriptors,
// never a link, one edit of a file at a time), keeping everything else as the user wrote it. A
// file that is not valid JSON is left alone and the error says so, rather than replaced.

type Json = Record<string, unknown>;

function parseJson(file: string, text: string | undefined): Json {
  if (text === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON, left unchanged: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new Error(`${file}: must hold a JSON object, left unchanged`);
  return json as Json;
}

/** Adds or removes `rule` in `raw.permissions[kind]`, in place; false when nothing changed. */
export function editRules(raw: Json, kind: RuleKind, rule: string, op: 'add' | 'remove'): boolean {
  const perms =
    raw.permissions && typeof raw.permissions === 'object' && !Array.isArray(raw.permissions)
      ? { ...(raw.permissions as Json) }
      : {};
  const list = Array.isArray(perms[kind]) ? [...(perms[kind] as unknown[])] : [];
  const at = list.indexOf(rule);
  if (op === 'add' ? at !== -1 : at === -1) return false;
  if (op === 'add') list.push(rule);
  else list.splice(at, 1);
  perms[kind] = list;
  raw.permissions = perms;
  return true;
}

/** What editRuleInFile did: the text it read (null: no file) and the text it wrote, if any. */
export interface RuleFileEdit {
  changed: boolean;
  before: string | null;
  written: string | null;
}

/** A project's settings file (below the real project root `root`): read, edit, written atomically. */
export function editRuleInFile(
  files: SettingsFiles,
  root: string,
  file: string,
  kind: RuleKind,
  rule: string,
  op: 'add' | 'remove',
): Promise<RuleFileEdit> {
  return files.edit(root, file, (text) => {
    const raw = parseJson(file, text);
    const changed = editRules(raw, kind, rule, op);
    const written = changed ? `${JSON.stringify(raw, null, 2)}\n` : null;
    return { text: written, result: { changed, before: text ?? null, written } };
  });
}

import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../store/atomic-json';
import type { RuleKind } from './rule';

// Adds or removes one permission rule in a settings file (configs/app.json through its
// ConfigStore, or a project's .mewbo/settings.json), keeping everything else as the user wrote it. A file that is not valid
// JSON is left alone and the error says so, rather than replaced.

type Json = Record<string, unknown>;

async function readJson(file: string): Promise<Json> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
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

/** A project's settings file: read, edit, written atomically. */
export async function editRuleInFile(
  file: string,
  kind: RuleKind,
  rule: string,
  op: 'add' | 'remove',
): Promise<boolean> {
  const raw = await readJson(file);
  if (!editRules(raw, kind, rule, op)) return false;
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`);
  return true;
}

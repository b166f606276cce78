import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Where the user's rules and hooks are written: configs/app.json (the user's, everywhere) and,
// for a trusted project only, its `.mewbo/settings.json` and Claude Code's `.claude/settings.json`
// / `.claude/settings.local.json` (so a project set up for Claude Code works unchanged). Files are
// read fresh on each use: a rule added by "Always allow" or by hand applies to the next call.

export type RuleScope = 'session' | 'project' | 'user';

export interface ConfigWarning {
  file: string;
  /** 1-based; absent when the place cannot be found. */
  line?: number;
  message: string;
}

export interface SettingsSource {
  scope: 'user' | 'project';
  file: string;
  text: string;
  json: Record<string, unknown>;
}

export const PROJECT_SETTINGS_FILES = [
  '.mewbo/settings.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
] as const;

/** Where "Always allow ... in this project" writes. */
export const PROJECT_RULES_FILE = PROJECT_SETTINGS_FILES[0];

/** The 1-based line where `needle` (JSON-encoded when a string value) first occurs after `from`. */
export function lineOf(text: string, needle: unknown, from = 0): number | undefined {
  const s = typeof needle === 'string' ? JSON.stringify(needle) : String(needle);
  const at = text.indexOf(s, from);
  if (at === -1) return undefined;
  return text.slice(0, at).split('\n').length;
}

async function readSource(
  scope: SettingsSource['scope'],
  file: string,
  warnings: ConfigWarning[],
): Promise<SettingsSource | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const json: unknown = JSON.parse(text);
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      warnings.push({ file, line: 1, message: 'must hold a JSON object' });
      return null;
    }
    return { scope, file, text, json: json as Record<string, unknown> };
  } catch (err) {
    const m = /position (\d+)/.exec((err as Error).message);
    const line = m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
    warnings.push({ file, line, message: `not valid JSON: ${(err as Error).message}` });
    return null;
  }
}

export interface SourcesInput {
  configFile: string;
  /** The project root, or null for a session bound to no project. */
  root: string | null;
  trusted: boolean;
  /**
   * Whether a project file's text may be used (ProjectTrust.trustsContent): one changed since
   * the project was trusted is left out, with a warning saying why and what to do.
   */
  admits(rel: string, text: string): Promise<boolean>;
}

/** Why a changed settings file is not used, and what to do about it. */
export function changedSinceTrustWarning(file: string, root: string): ConfigWarning {
  return {
    file,
    message:
      'changed or added since you trusted this project, so its rules and hooks are not used. ' +
      "Review the change, then trust the project again: the app's trust prompt shows the diff " +
      `(Settings > Trust lists ${root}); headless, \`mewbo run --trust\` trusts the project as ` +
      'it is for that run.',
  };
}

export async function readSettingsSources(
  i: SourcesInput,
): Promise<{ sources: SettingsSource[]; warnings: ConfigWarning[] }> {
  const warnings: ConfigWarning[] = [];
  const sources: SettingsSource[] = [];
  const user = await readSource('user', i.configFile, warnings);
  if (user) sources.push(user);
  if (i.root && i.trusted) {
    for (const rel of PROJECT_SETTINGS_FILES) {
      const s = await readSource('project', join(i.root, rel), warnings);
      if (!s) continue;
      if (await i.admits(rel, s.text)) sources.push(s);
      else warnings.push(changedSinceTrustWarning(s.file, i.root));
    }
  }
  return { sources, warnings };
}

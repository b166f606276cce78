import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ConfigWarning } from '../rules/settings-sources';
import { keyLine, readFrontMatter } from './front-matter';

// Skills: folders holding a SKILL.md (Claude Code's format: YAML front matter with `name` and
// `description`, then the instructions). From $MEWBO_HOME/skills (the user's, everywhere) and, for
// a trusted project only, its .mewbo/skills and .claude/skills. The system prompt lists names and
// descriptions; the body is read only when the model (or the user, with /name) asks for it.

export const SKILL_FILE = 'SKILL.md';
/** Claude Code's limits on a skill's name and description. */
const NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const DESCRIPTION_MAX = 1024;
/** Other files listed per skill: a skill folder with a vendored tree must not flood the result. */
export const SKILL_FILES_MAX = 100;

export interface Skill {
  name: string;
  description: string;
  dir: string;
  file: string;
  scope: 'user' | 'project';
}

export interface SkillDirs {
  userDir: string;
  root: string | null;
  trusted: boolean;
}

export function skillDirs(d: SkillDirs): { dir: string; scope: Skill['scope'] }[] {
  const out: { dir: string; scope: Skill['scope'] }[] = [{ dir: d.userDir, scope: 'user' }];
  if (d.root && d.trusted)
    for (const rel of ['.mewbo/skills', '.claude/skills'])
      out.push({ dir: join(d.root, rel), scope: 'project' });
  return out;
}

async function loadOne(
  dir: string,
  scope: Skill['scope'],
  warnings: ConfigWarning[],
): Promise<Skill | null> {
  const file = join(dir, SKILL_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const fm = readFrontMatter(text, file, warnings);
  if (!fm) return null;
  const { name, description } = fm.data;
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    warnings.push({
      file,
      line: keyLine(text, 'name') ?? 1,
      message:
        name === undefined
          ? 'front matter needs a `name`'
          : '`name` must be lowercase letters, digits and hyphens (at most 64)',
    });
    return null;
  }
  if (typeof description !== 'string' || !description.trim()) {
    warnings.push({
      file,
      line: keyLine(text, 'description') ?? 1,
      message: 'front matter needs a `description`',
    });
    return null;
  }
  if (description.length > DESCRIPTION_MAX)
    warnings.push({
      file,
      line: keyLine(text, 'description'),
      message: `description is over ${DESCRIPTION_MAX} characters; cut`,
    });
  return { name, description: description.trim().slice(0, DESCRIPTION_MAX), dir, file, scope };
}

/** Every skill visible from `root`; the first of a name wins (the user's own before a project's). */
export async function loadSkills(
  d: SkillDirs,
): Promise<{ skills: Skill[]; warnings: ConfigWarning[] }> {
  const warnings: ConfigWarning[] = [];
  const skills: Skill[] = [];
  for (const { dir, scope } of skillDirs(d)) {
    let entries: string[];
    try {
      entries = (await readdir(dir, { withFileTypes: true }))
        .filter((e) => e.isDirectory() || e.isSymbolicLink())
        .map((e) => e.name)
        .sort();
    } catch {
      continue;
    }
    for (const name of entries) {
      const s = await loadOne(join(dir, name), scope, warnings);
      if (!s) continue;
      const prior = skills.find((k) => k.name === s.name);
      if (prior) {
        warnings.push({
          file: s.file,
          line: keyLine(await readFile(s.file, 'utf8'), 'name'),
          message: `skill "${s.name}" is already defined in ${prior.file}; this one is ignored`,
        });
        continue;
      }
      skills.push(s);
    }
  }
  return { skills, warnings };
}

/** A skill's body (the text after its front matter). */
export async function skillBody(skill: Skill): Promise<string> {
  const text = await readFile(skill.file, 'utf8');
  return readFrontMatter(text, skill.file, [])?.body.trim() ?? '';
}

/** The skill's other files, relative to its folder (bounded). */
export async function skillFiles(skill: Skill): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4 || truncated) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p, depth + 1);
      else if (e.isFile() && p !== skill.file) {
        if (files.length >= SKILL_FILES_MAX) {
          truncated = true;
          return;
        }
        files.push(relative(skill.dir, p).split(sep).join('/'));
      }
    }
  };
  await walk(skill.dir, 0);
  return { files, truncated };
}

/** Resolves `rel` inside the skill's folder, following symlinks; null when it leaves the folder. */
export async function skillFilePath(skill: Skill, rel: string): Promise<string | null> {
  try {
    const base = await realpath(skill.dir);
    const real = await realpath(join(skill.dir, rel));
    if (!real.startsWith(base + sep)) return null;
    if (!(await stat(real)).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

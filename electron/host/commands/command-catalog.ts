import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigWarning } from '../rules/settings-sources';
import { readFrontMatter } from '../skills/front-matter';

// The user's slash commands, Claude Code's format: a Markdown file per command (optional YAML front
// matter with `description` and `argument-hint`), its name the file name; a file in a subfolder
// is `folder:name`. From $MEWBO_HOME/commands and, for a trusted project only, its
// .mewbo/commands and .claude/commands. The first of a name wins (the user's own first).

export interface SlashCommand {
  name: string;
  description: string;
  argumentHint?: string;
  file: string;
  scope: 'user' | 'project';
  body: string;
}

/** Subfolder depth read (Claude Code namespaces one level; a little more costs nothing). */
const MAX_DEPTH = 3;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export interface CommandDirs {
  userDir: string;
  root: string | null;
  trusted: boolean;
}

async function walk(
  dir: string,
  prefix: string,
  depth: number,
  out: { file: string; name: string }[],
) {
  if (depth > MAX_DEPTH) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, `${prefix}${e.name}:`, depth + 1, out);
    else if (e.name.endsWith('.md')) out.push({ file: p, name: `${prefix}${e.name.slice(0, -3)}` });
  }
}

export async function loadCommands(
  d: CommandDirs,
): Promise<{ commands: SlashCommand[]; warnings: ConfigWarning[] }> {
  const dirs: { dir: string; scope: SlashCommand['scope'] }[] = [{ dir: d.userDir, scope: 'user' }];
  if (d.root && d.trusted)
    for (const rel of ['.mewbo/commands', '.claude/commands'])
      dirs.push({ dir: join(d.root, rel), scope: 'project' });
  const commands: SlashCommand[] = [];
  const warnings: ConfigWarning[] = [];
  for (const { dir, scope } of dirs) {
    const files: { file: string; name: string }[] = [];
    await walk(dir, '', 0, files);
    for (const { file, name } of files) {
      if (!NAME_RE.test(name) || commands.some((c) => c.name === name)) continue;
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue;
      }
      const fm = readFrontMatter(text, file, warnings);
      if (!fm) continue;
      const desc = fm.data.description;
      const hint = fm.data['argument-hint'];
      const firstLine = fm.body.trim().split('\n')[0] ?? '';
      commands.push({
        name,
        description: typeof desc === 'string' ? desc : firstLine.slice(0, 120),
        ...(typeof hint === 'string' ? { argumentHint: hint } : {}),
        file,
        scope,
        body: fm.body,
      });
    }
  }
  return { commands, warnings };
}

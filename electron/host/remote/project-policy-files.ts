import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_MCP_FILE } from '../mcp/project-config';
import { INSTRUCTION_FILES } from '../projects/instructions';
import { PROJECT_SETTINGS_FILES } from '../rules/settings-sources';
import { SKILL_FILE } from '../skills/skill-catalog';
import { POLICY_FILE_MAX_BYTES, POLICY_FILES_MAX } from './constants';

// The files of a project the app itself reads, obeys or runs (issue #29 part 3): its instructions
// (CLAUDE.md, AGENTS.md), its settings (rules and hooks), its `.mcp.json`, its skills and slash
// commands. For a project on an SSH host they are read there by the remote part and copied into
// the app (remote-project-mirror.ts), where the same readers, trust and content digests as for a
// local project apply to them. The list of what may be copied is the one both sides check: the
// app writes nothing the remote names outside it.

export interface PolicyFile {
  /** Relative to the project root, '/'-separated. */
  path: string;
  text: string;
}

const FIXED: readonly string[] = [
  ...INSTRUCTION_FILES,
  ...PROJECT_SETTINGS_FILES,
  PROJECT_MCP_FILE,
];
const SKILL_DIRS = ['.mewbo/skills', '.claude/skills'] as const;
const COMMAND_DIRS = ['.mewbo/commands', '.claude/commands'] as const;
/** command-catalog.ts reads commands this deep below their folder. */
const COMMAND_MAX_DEPTH = 3;

/** A name the app may create: not empty, not '.', '..', nor holding a separator or control byte. */
function plainName(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name)) return false;
  return ![...name].some((c) => c < ' ' || c === '\x7f');
}

/** Whether `path` (as the remote sent it) is one of a project's policy files. */
export function isPolicyFile(path: string): boolean {
  if (FIXED.includes(path)) return true;
  const parts = path.split('/');
  if (!parts.every(plainName)) return false;
  const dir = parts.slice(0, 2).join('/');
  if ((SKILL_DIRS as readonly string[]).includes(dir))
    return parts.length === 4 && parts[3] === SKILL_FILE;
  if ((COMMAND_DIRS as readonly string[]).includes(dir))
    return parts.length >= 3 && parts.length <= 3 + COMMAND_MAX_DEPTH && path.endsWith('.md');
  return false;
}

/** A policy file's size as the limit counts it: its text's UTF-8 bytes, as it crosses the link. */
export function policyTextBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

async function readSmall(file: string): Promise<string | null> {
  try {
    const st = await stat(file);
    if (!st.isFile() || st.size > POLICY_FILE_MAX_BYTES) return null;
    const text = await readFile(file, 'utf8');
    // Bytes that are not UTF-8 grow as they are decoded: the app checks the text it is sent.
    return policyTextBytes(text) > POLICY_FILE_MAX_BYTES ? null : text;
  } catch {
    return null;
  }
}

async function names(dir: string): Promise<{ name: string; dir: boolean }[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => plainName(e.name))
      .map((e) => ({ name: e.name, dir: e.isDirectory() }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

async function commandFiles(root: string, rel: string, depth: number, out: string[]) {
  for (const e of await names(join(root, rel))) {
    const path = `${rel}/${e.name}`;
    if (e.dir) {
      if (depth < COMMAND_MAX_DEPTH) await commandFiles(root, path, depth + 1, out);
    } else if (e.name.endsWith('.md')) out.push(path);
  }
}

/** The policy files `root` holds now (on the machine this runs on), at most POLICY_FILES_MAX. */
export async function readPolicyFiles(root: string): Promise<PolicyFile[]> {
  const paths = [...FIXED];
  for (const dir of SKILL_DIRS)
    for (const e of await names(join(root, dir)))
      if (e.dir) paths.push(`${dir}/${e.name}/${SKILL_FILE}`);
  for (const dir of COMMAND_DIRS) await commandFiles(root, dir, 0, paths);
  const out: PolicyFile[] = [];
  for (const path of paths) {
    if (out.length >= POLICY_FILES_MAX) break;
    const text = await readSmall(join(root, path));
    if (text !== null) out.push({ path, text });
  }
  return out;
}

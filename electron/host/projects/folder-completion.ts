import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { probeDir } from './disk';
import { FOLDER_COMPLETIONS_MAX } from './constants';

export interface FolderCompletion {
  /** Absolute folders whose name starts with what was typed after the last `/`, by name. */
  folders: string[];
  /** More folders matched than FOLDER_COMPLETIONS_MAX. */
  truncated: boolean;
}

/**
 * The picker's path completion: `typed` is an absolute path being typed. What comes after its
 * last `/` is a prefix of a folder's name in the folder before it (`/home/us` lists /home's
 * folders starting with "us", case-insensitively; `/home/` lists all of /home's). Hidden folders
 * only when the prefix starts with a dot, as a shell completes. A folder that cannot be read
 * (missing, no permission, a dead mount) completes to nothing; a link to a folder is a folder.
 */
export async function completeFolder(typed: string): Promise<FolderCompletion> {
  const dir = typed.endsWith('/') ? typed : dirname(typed);
  const prefix = typed.endsWith('/') ? '' : basename(typed).toLowerCase();
  // A dead network mount must not hold the picker: the same bounded probe as the registry's.
  if ((await probeDir(dir)) !== 'present') return { folders: [], truncated: false };
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const named = entries
    .filter((e) => e.name.toLowerCase().startsWith(prefix))
    .filter((e) => prefix.startsWith('.') || !e.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name));
  const folders: string[] = [];
  for (const e of named) {
    const path = join(dir, e.name);
    const isFolder =
      e.isDirectory() || (e.isSymbolicLink() && (await probeDir(path)) === 'present');
    if (!isFolder) continue;
    if (folders.length === FOLDER_COMPLETIONS_MAX) return { folders, truncated: true };
    folders.push(path);
  }
  return { folders, truncated: false };
}

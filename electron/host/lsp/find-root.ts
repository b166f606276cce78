import { existsSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';

/**
 * The workspace root of a file: the nearest directory holding one of the markers, walking up from
 * the file but never above the project root (a marker in a parent of the project, such as a
 * package.json in the home directory, would start a server over files the session cannot reach).
 * With no marker the project root itself is the workspace (the seed's "else the working directory").
 */
export function findWorkspaceRoot(file: string, projectRoot: string, markers: string[]): string {
  let dir = dirname(file);
  while (isInside(dir, projectRoot)) {
    if (markers.some((m) => existsSync(join(dir, m)))) return dir;
    if (dir === projectRoot) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return projectRoot;
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

import { realpath } from 'node:fs/promises';
import { filePath, walk, type DirNode } from '../tools/list-dir';
import { rankPaths } from './fuzzy-path';
import { FILE_INDEX_ROOTS, FILE_INDEX_TTL_MS, FILE_INDEX_WALK_MS } from './constants';

// The files of a project as the composer's `@` menu offers them: the same walk list_dir does
// (.gitignore honoured, .git skipped, symlinked directories not followed, every directory opened
// through a verified descriptor), kept for a few seconds so typing a query does not re-walk the
// tree on every key.

export interface FileMatches {
  /** Paths relative to the root, best match first. */
  files: string[];
  /** Files in the project (the walk's count; a walk cut by its time limit counts what it saw). */
  total: number;
}

interface Walked {
  at: number;
  files: Promise<string[]>;
}

/** The tree's files in list_dir's order (a directory's files by name, then its subdirectories). */
function flatten(tree: DirNode): string[] {
  const out: string[] = [];
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    for (const name of node.files) out.push(filePath(node, name));
    for (let k = node.subdirs.length - 1; k >= 0; k--) stack.push(node.subdirs[k]!);
  }
  return out;
}

export class ProjectFileIndex {
  private readonly walks = new Map<string, Walked>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The best `limit` files of `root` for `query` (fuzzy; an empty query: the shallowest). */
  async search(root: string, query: string, limit: number): Promise<FileMatches> {
    const files = await this.files(root);
    return { files: rankPaths(files, query, limit), total: files.length };
  }

  private async files(root: string): Promise<string[]> {
    const real = await realpath(root);
    const held = this.walks.get(real);
    if (held && this.now() - held.at < FILE_INDEX_TTL_MS) return held.files;
    const files = walk(real, real, AbortSignal.timeout(FILE_INDEX_WALK_MS)).then((w) =>
      flatten(w.tree),
    );
    // A failed walk is not kept: the next key tries again.
    files.catch(() => this.walks.delete(real));
    this.walks.delete(real);
    this.walks.set(real, { at: this.now(), files });
    // Oldest first in a Map: the least recently walked root goes.
    while (this.walks.size > FILE_INDEX_ROOTS) this.walks.delete(this.walks.keys().next().value!);
    return files;
  }
}

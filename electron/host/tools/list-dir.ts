import type { Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { GitignoreRules } from '../fs/gitignore-rules';
import { readDirInRoot } from '../fs/safe-open';
import { relativeToRoot, safeResolve } from '../fs/safe-path';
import {
  LIST_DIR_DEFAULT_MAX_ENTRIES,
  LIST_DIR_MAX_CHARS,
  LIST_DIR_MAX_ENTRIES,
} from './constants';
import { fsErrorPayload } from './file-errors';
import { defineTool } from './tool';

// aider_list_dir_tool: every file under a directory, recursively, as paths relative to root;
// .gitignore honoured, .git skipped, symlinked directories listed but not followed (they could
// lead out of the root or loop). Directories are read in parallel by a bounded pool, each opened
// through a verified descriptor (safe-open), so swapping one for a symlink mid-walk cannot list
// another project. The whole tree is walked, so a listing cut at its cap still gives the exact
// total; the order is fixed (a directory's files by name, then its subdirectories by name).

/** Directories read at once (libuv runs four file operations at a time by default). */
const LIST_DIR_CONCURRENCY = 8;
const SKIPPED_DIRS = new Set(['.git']);

const parameters = z.strictObject({
  path: z.string().default('.').describe('Directory to list (default: the root)'),
  root: z
    .string()
    .optional()
    .describe('Project root; listed paths are relative to it (may only narrow the session root)'),
  max_entries: z
    .number()
    .int()
    .min(1)
    .max(LIST_DIR_MAX_ENTRIES)
    .default(LIST_DIR_DEFAULT_MAX_ENTRIES)
    .describe(`Files listed at most (default ${LIST_DIR_DEFAULT_MAX_ENTRIES})`),
});

const toPosix = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));
const byName = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * One directory of the walk: its listed files (their names: a 100k-file walk built and kept a
 * path string for each, when an answer shows about a thousand) and its entered subdirectories,
 * both by name.
 */
export interface DirNode {
  rel: string;
  files: string[];
  subdirs: DirNode[];
}

/** The path of file `name` of `node`, relative to the root. */
export function filePath(node: DirNode, name: string): string {
  return node.rel ? `${node.rel}/${name}` : name;
}

interface Task {
  abs: string;
  node: DirNode;
  rules: GitignoreRules;
  /** The listed directory itself: its rules (and its ancestors') are already in `rules`. */
  top: boolean;
}

/**
 * Reads every directory under `start` (bounded parallelism); returns the tree and the file count.
 * The composer's `@` file list walks with it too, so it lists exactly what list_dir would.
 */
export async function walk(
  root: string,
  start: string,
  signal: AbortSignal,
): Promise<{ tree: DirNode; total: number; aborted: boolean }> {
  // Rules of the directories between the root and the listed one apply too.
  let rules = await GitignoreRules.empty().enter(root, '');
  const between = toPosix(relative(root, start)).split('/').filter(Boolean);
  let dir = root;
  for (const part of between) {
    dir = join(dir, part);
    rules = await rules.enter(dir, toPosix(relative(root, dir)));
  }
  const tree: DirNode = { rel: toPosix(relative(root, start)), files: [], subdirs: [] };
  let total = 0;
  const queue: Task[] = [{ abs: start, node: tree, rules, top: true }];

  const visit = async (task: Task): Promise<void> => {
    const { node } = task;
    let entries: Dirent[];
    let here = task.rules;
    try {
      entries = await readDirInRoot(root, task.abs, async (read, self) => {
        // Only whether a .gitignore or a .git is here matters: no set of every name.
        const marks = new Set(read.filter((e) => e.name.startsWith('.git')).map((e) => e.name));
        if (!task.top) here = await here.enter(self, node.rel, marks);
        return read;
      });
    } catch {
      return; // unreadable, or swapped for a link since it was listed: skip it
    }
    entries.sort((x, y) => byName(x.name, y.name));
    for (const e of entries) {
      if (e.isDirectory()) {
        if (SKIPPED_DIRS.has(e.name) || here.ignores(node.rel, e.name, true)) continue;
        const child: DirNode = { rel: filePath(node, e.name), files: [], subdirs: [] };
        node.subdirs.push(child);
        queue.push({ abs: join(task.abs, e.name), node: child, rules: here, top: false });
        continue;
      }
      if (here.ignores(node.rel, e.name, false)) continue;
      node.files.push(e.name);
      total++;
    }
  };

  await new Promise<void>((resolve, reject) => {
    let active = 0;
    const pump = (): void => {
      while (!signal.aborted && active < LIST_DIR_CONCURRENCY && queue.length) {
        active++;
        visit(queue.pop()!).then(() => {
          active--;
          pump();
        }, reject);
      }
      if (active === 0 && (queue.length === 0 || signal.aborted)) resolve();
    };
    pump();
  });
  return { tree, total, aborted: signal.aborted };
}

interface Shown {
  shown: string[];
  cutByChars: boolean;
}

/** The first files of the tree in listing order, within max_entries and the character cap. */
function firstFiles(tree: DirNode, maxEntries: number): Shown {
  const out: Shown = { shown: [], cutByChars: false };
  let chars = 0;
  const stack: DirNode[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    for (const name of node.files) {
      if (out.shown.length >= maxEntries) return out;
      const f = filePath(node, name);
      if (chars + f.length + 1 > LIST_DIR_MAX_CHARS) {
        out.cutByChars = true;
        return out;
      }
      out.shown.push(f);
      chars += f.length + 1;
    }
    for (let k = node.subdirs.length - 1; k >= 0; k--) stack.push(node.subdirs[k]!);
  }
  return out;
}

export const listDirTool = defineTool({
  name: 'aider_list_dir_tool',
  description:
    'List every file under a directory, recursively, as paths relative to the root. Honours ' +
    '.gitignore and skips .git. Large listings are cut at max_entries or 30,000 characters with a note.',
  parameters,
  flags: { readOnly: true, approval: 'none' },
  async run(ctx, args): Promise<ToolPayload> {
    const resolved = safeResolve(ctx.root, args.root, args.path, { label: 'path' });
    if (!resolved.ok) return resolved.error;
    const { root, path } = resolved;
    const shown = relativeToRoot(root, path);
    try {
      if (!(await stat(path)).isDirectory()) {
        return errorPayload(
          'not_a_directory',
          `${shown} is a file, not a directory; read it with read_file`,
          { path: shown },
        );
      }
    } catch (err) {
      return fsErrorPayload(err, root, path, shown);
    }
    const walked = await walk(root, path, ctx.signal);
    const result = { ...firstFiles(walked.tree, args.max_entries), total: walked.total };
    const truncated = result.shown.length < result.total;
    let text = result.shown.join('\n');
    const payload: ToolPayload = {
      kind: 'listing',
      path: shown,
      text: '',
      entries: result.shown.length,
      total: result.total,
      truncated,
    };
    if (truncated) {
      const total = walked.aborted ? `at least ${result.total}` : String(result.total);
      const why = result.cutByChars
        ? `the ${LIST_DIR_MAX_CHARS}-character limit`
        : `max_entries ${args.max_entries}`;
      payload.note = `... (truncated: showing ${result.shown.length} of ${total} files, cut at ${why}; list a subdirectory with path to see more)`;
      text += `${text ? '\n' : ''}${payload.note}`;
    } else if (result.total === 0) {
      payload.note = 'No files (the directory is empty, or everything in it is ignored).';
    }
    payload.text = text;
    return payload;
  },
});

import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { GitignoreRules } from '../fs/gitignore-rules';
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
// lead out of the root or loop). Past the shown entries the walk only counts, up to a bound, so
// the truncation note can say how much was left out.

/** Files counted at most for the "N total" of a truncated listing (keeps huge trees bounded). */
const COUNT_LIMIT = 1_000_000;
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

interface Walk {
  shown: string[];
  chars: number;
  total: number;
  cutByChars: boolean;
}

async function walk(
  root: string,
  start: string,
  maxEntries: number,
  signal: AbortSignal,
): Promise<Walk> {
  const state: Walk = { shown: [], chars: 0, total: 0, cutByChars: false };
  let rules = GitignoreRules.empty();
  // Rules of the directories between the root and the listed one apply too.
  const between = toPosix(relative(root, start)).split('/').filter(Boolean);
  let dir = root;
  rules = await rules.enter(root, '');
  for (const part of between) {
    dir = join(dir, part);
    rules = await rules.enter(dir, toPosix(relative(root, dir)));
  }
  const stack: Array<{ abs: string; rel: string; rules: GitignoreRules }> = [
    { abs: start, rel: toPosix(relative(root, start)), rules },
  ];
  while (stack.length && state.total < COUNT_LIMIT) {
    if (signal.aborted) break;
    const { abs, rel, rules: parent } = stack.pop()!;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable subdirectory: skip it rather than fail the listing
    }
    const here =
      abs === start ? parent : await parent.enter(abs, rel, new Set(entries.map((e) => e.name)));
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    const subdirs: Array<{ abs: string; rel: string; rules: GitignoreRules }> = [];
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (SKIPPED_DIRS.has(e.name) || here.ignores(`${childRel}/`)) continue;
        subdirs.push({ abs: join(abs, e.name), rel: childRel, rules: here });
        continue;
      }
      if (here.ignores(childRel)) continue;
      state.total++;
      if (state.shown.length < maxEntries && !state.cutByChars) {
        if (state.chars + childRel.length + 1 > LIST_DIR_MAX_CHARS) state.cutByChars = true;
        else {
          state.shown.push(childRel);
          state.chars += childRel.length + 1;
        }
      }
    }
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k]!);
  }
  return state;
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
    const result = await walk(root, path, args.max_entries, ctx.signal);
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
      const total = result.total >= COUNT_LIMIT ? `more than ${COUNT_LIMIT}` : String(result.total);
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

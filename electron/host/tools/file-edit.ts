import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { relativeToRoot, safeResolve } from '../fs/safe-path';
import { diffPayload } from './diff-payload';
import { policyWriteRefused } from './policy-guard';
import { editorBuffers, writeEdits } from './editor-edits';
import { describeNearMatch, findNearMatch } from './near-match';
import { loadEditableText, normalizeModelText, restoreEol } from './text-file';
import { defineTool } from './tool';

// structured_patch: one exact string substitution in one file (seed). An empty old_string appends
// (creating the file); several matches are an error naming the count unless replace_all.

const parameters = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('Path to the file to edit, relative to root (or absolute inside it)'),
  old_string: z
    .string()
    .describe(
      'Exact text to find, whitespace included; empty appends new_string (creating the file)',
    ),
  new_string: z.string().describe('Replacement text (may be empty to delete)'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence; default false'),
  root: z
    .string()
    .optional()
    .describe('Project root for path resolution; may only narrow the session root'),
});

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

export const fileEditTool = defineTool({
  name: 'file_edit_tool',
  description:
    'Replace one exact string in one file and return the unified diff. old_string must match the ' +
    'file exactly (whitespace included) and only once, unless replace_all is set. An empty ' +
    'old_string appends new_string to the file, creating it if needed.',
  parameters,
  flags: { readOnly: false, approval: 'edit' },
  async run(ctx, args): Promise<ToolPayload> {
    const resolved = safeResolve(ctx.root, args.root, args.file_path, { label: 'file_path' });
    if (!resolved.ok) return resolved.error;
    const { root, path } = resolved;
    const refused = policyWriteRefused(ctx, 'file_edit_tool', [path]);
    if (refused) return refused;
    const shown = relativeToRoot(root, path);
    const file = await loadEditableText(root, path, shown, editorBuffers(ctx));
    if ('kind' in file) return file;
    const oldString = normalizeModelText(args.old_string, file.eol);
    const newString = normalizeModelText(args.new_string, file.eol);
    let after: string;
    let replacements = 0;
    if (oldString === '') {
      if (newString === '')
        return errorPayload('no_change', 'old_string and new_string are both empty; nothing to do');
      after = file.text + newString;
    } else {
      if (!file.exists) {
        return errorPayload(
          'not_found',
          `File not found: ${shown}. To create it, call again with an empty old_string.`,
          { path: shown },
        );
      }
      if (oldString === newString)
        return errorPayload(
          'no_change',
          'old_string and new_string are identical; nothing to edit',
          { path: shown },
        );
      const count = countOf(file.text, oldString);
      if (count === 0) {
        const near = findNearMatch(file.text, oldString);
        return errorPayload(
          'no_match',
          `old_string was not found in ${shown}. ${describeNearMatch(near)}`,
          { path: shown, near_match: near },
        );
      }
      if (count > 1 && !args.replace_all) {
        return errorPayload(
          'ambiguous',
          `old_string matches ${count} places in ${shown}; include more surrounding text to make it unique, or set replace_all`,
          { path: shown, count },
        );
      }
      after = args.replace_all
        ? file.text.split(oldString).join(newString)
        : file.text.replace(oldString, () => newString);
      replacements = args.replace_all ? count : 1;
    }
    const failed = await writeEdits(ctx, root, [
      {
        path,
        shown,
        before: file.exists ? file.original : null,
        after: restoreEol(after, file.eol),
      },
    ]);
    if (failed) return failed;
    return diffPayload(
      [{ shown, before: file.text, after, created: !file.exists }],
      oldString === '' ? { appended: true } : { replacements },
    );
  },
});

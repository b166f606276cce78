import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import {
  PathValidationError,
  narrowRoot,
  pathErrorPayload,
  relativeToRoot,
  resolveInsideRoot,
} from '../fs/safe-path';
import { applySearchReplace, type Fallback } from './block-match';
import { diffPayload, type EditedFile } from './diff-payload';
import { policyWriteRefused } from './policy-guard';
import { parseEditBlocks, type EditBlock } from './edit-block-parser';
import { editorBuffers, writeEdits, type EditWrite } from './editor-edits';
import { describeNearMatch, findNearMatch } from './near-match';
import { loadEditableText, normalizeModelText, restoreEol, type EditableText } from './text-file';
import { defineTool } from './tool';

// search_replace_block: aider-style SEARCH/REPLACE blocks, all applied or none. Every block is
// matched against the in-memory text first; only when all of them apply is anything written,
// and then every file is replaced atomically.

const FORMAT_HINT =
  'Format: the file path on its own line, then a fence (```), then\n<<<<<<< SEARCH\n(exact lines)\n=======\n(new lines)\n>>>>>>> REPLACE\nthen the closing fence.';

const parameters = z.strictObject({
  content: z
    .string()
    .min(1)
    .describe(
      'One or more SEARCH/REPLACE blocks, each preceded by its file path line and an opening fence',
    ),
  root: z
    .string()
    .optional()
    .describe('Project root for path resolution; may only narrow the session root'),
  files: z.array(z.string()).optional().describe('Allowlist of files this call may touch'),
});

interface Target {
  abs: string;
  shown: string;
  file: EditableText;
  text: string;
}

interface Failure {
  block: EditBlock;
  message: string;
}

function resolveAll(root: string, names: string[], label: string): string[] {
  return names.map((n) => resolveInsideRoot(root, n, { label }));
}

type Args = z.infer<typeof parameters>;

interface Plan {
  root: string;
  changed: Target[];
  fallbacks: Array<{ block: number; file: string; kind: Fallback }>;
  blocks: number;
}

/**
 * Everything short of writing: parse, resolve, match every block in memory. The tool writes what
 * this returns; an approval shows it as a diff before anything is written (one matcher for both).
 */
async function planEditBlocks(
  sessionRoot: string,
  args: Args,
  buffer?: (abs: string) => Promise<string | null>,
): Promise<Plan | ToolPayload> {
  const parsed = parseEditBlocks(args.content);
  if (parsed.shellBlocks.length) {
    return errorPayload(
      'shell_block_rejected',
      `Shell code blocks are not run by this tool (line ${parsed.shellBlocks.join(', ')}); use aider_shell_tool for commands. Nothing was changed.`,
      { lines: parsed.shellBlocks },
    );
  }
  if (parsed.errors.length) {
    return errorPayload(
      'parse_error',
      `Malformed SEARCH/REPLACE content; nothing was changed.\n${parsed.errors.join('\n')}\n${FORMAT_HINT}`,
      { errors: parsed.errors },
    );
  }
  if (!parsed.blocks.length)
    return errorPayload('no_blocks', `No SEARCH/REPLACE blocks found. ${FORMAT_HINT}`);

  let root: string;
  const paths = new Map<EditBlock, string>();
  let allowed: Set<string> | null = null;
  try {
    root = narrowRoot(sessionRoot, args.root);
    if (args.files) allowed = new Set(resolveAll(root, args.files, 'files entry'));
    for (const block of parsed.blocks)
      paths.set(
        block,
        resolveInsideRoot(root, block.file, { label: `block ${block.index} filename` }),
      );
  } catch (err) {
    if (err instanceof PathValidationError) return pathErrorPayload(err);
    throw err;
  }
  if (allowed) {
    const outside = parsed.blocks.filter((b) => !allowed.has(paths.get(b)!));
    if (outside.length) {
      const list = outside.map((b) => `block ${b.index} (${b.file})`).join(', ');
      return errorPayload(
        'not_allowed',
        `Not in the allowed files (${args.files!.join(', ')}): ${list}. Nothing was changed.`,
        {
          blocks: outside.map((b) => b.index),
        },
      );
    }
  }

  const targets = new Map<string, Target>();
  const failures: Failure[] = [];
  const fallbacks: Array<{ block: number; file: string; kind: Fallback }> = [];
  for (const block of parsed.blocks) {
    const abs = paths.get(block)!;
    let target = targets.get(abs);
    if (!target) {
      const shown = relativeToRoot(root, abs);
      const file = await loadEditableText(root, abs, shown, buffer);
      if ('kind' in file) return file;
      target = { abs, shown, file, text: file.text };
      targets.set(abs, target);
    }
    const search = normalizeModelText(block.search, target.file.eol);
    const replace = normalizeModelText(block.replace, target.file.eol);
    if (search === '') {
      // Empty SEARCH: create the file, or append to it (after a newline if it lacks one).
      const sep = target.text !== '' && !target.text.endsWith('\n') ? '\n' : '';
      target.text = target.text + sep + replace;
      continue;
    }
    if (!target.file.exists && target.text === '') {
      failures.push({
        block,
        message: `${target.shown} does not exist; to create it use an empty SEARCH section`,
      });
      continue;
    }
    const outcome = applySearchReplace(target.text, search, replace);
    if (outcome.ok) {
      target.text = outcome.text;
      if (outcome.fallback)
        fallbacks.push({ block: block.index, file: target.shown, kind: outcome.fallback });
    } else if (outcome.reason === 'ambiguous') {
      failures.push({
        block,
        message: `SEARCH matches ${outcome.count} places in ${target.shown}; add surrounding lines so it matches exactly one`,
      });
    } else if (outcome.reason === 'bad_dots') {
      failures.push({ block, message: outcome.detail! });
    } else {
      const near = describeNearMatch(findNearMatch(target.text, search));
      const detail = outcome.detail ? ` (${outcome.detail})` : '';
      failures.push({
        block,
        message: `SEARCH does not match ${target.shown} exactly${detail}. ${near}`,
      });
    }
  }

  if (failures.length) {
    const okBlocks = parsed.blocks
      .filter((b) => !failures.some((f) => f.block === b))
      .map((b) => b.index);
    const lines = failures.map(
      (f) => `Block ${f.block.index} (${f.block.file}, line ${f.block.line}): ${f.message}`,
    );
    const tail = okBlocks.length
      ? `Blocks ${okBlocks.join(', ')} matched but were not applied either.`
      : '';
    return errorPayload(
      'no_match',
      `${failures.length} of ${parsed.blocks.length} blocks failed; nothing was changed.\n${lines.join('\n\n')}\n${tail}`.trim(),
      {
        failed_blocks: failures.map((f) => f.block.index),
      },
    );
  }

  const changed = [...targets.values()].filter((t) => !t.file.exists || t.text !== t.file.text);
  if (!changed.length)
    return errorPayload(
      'no_change',
      'The blocks matched but their REPLACE text equals the SEARCH text; nothing changed.',
    );
  return { root, changed, fallbacks, blocks: parsed.blocks.length };
}

/** The files these blocks would change, before and after, or null when they would not apply. */
export async function previewEditBlocks(
  sessionRoot: string,
  args: unknown,
): Promise<EditedFile[] | null> {
  const parsed = parameters.safeParse(args);
  if (!parsed.success) return null;
  const plan = await planEditBlocks(sessionRoot, parsed.data);
  if ('kind' in plan) return null;
  return editedFiles(plan.changed);
}

function editedFiles(changed: Target[]): EditedFile[] {
  return changed.map((t) => ({
    shown: t.shown,
    before: t.file.text,
    after: t.text,
    created: !t.file.exists,
  }));
}

export const editBlockTool = defineTool({
  name: 'aider_edit_block_tool',
  description:
    'Edit files with SEARCH/REPLACE blocks and return the unified diff. Each block: the file path on ' +
    'its own line, an opening ``` fence, <<<<<<< SEARCH, the exact current lines, =======, the new ' +
    'lines, >>>>>>> REPLACE, the closing fence. An empty SEARCH creates the file (or appends to it). ' +
    'A line of only `...` in both sections skips unchanged lines. All blocks apply or none does.',
  parameters,
  flags: { readOnly: false, approval: 'edit' },
  async run(ctx, args): Promise<ToolPayload> {
    const plan = await planEditBlocks(ctx.root, args, editorBuffers(ctx));
    if ('kind' in plan) return plan;
    const { root, changed, fallbacks, blocks } = plan;
    const refused = policyWriteRefused(
      ctx,
      'aider_edit_block_tool',
      changed.map((t) => t.abs),
    );
    if (refused) return refused;
    const changes: EditWrite[] = changed.map((t) => ({
      path: t.abs,
      shown: t.shown,
      before: t.file.exists ? t.file.original : null,
      after: restoreEol(t.text, t.file.eol),
    }));
    const failed = await writeEdits(ctx, root, changes);
    if (failed) return failed;
    const extra: Record<string, unknown> = { blocks };
    if (fallbacks.length) {
      extra.fallbacks = fallbacks;
      extra.note = fallbacks
        .map(
          (f) =>
            `Block ${f.block} matched ${f.file} only ${f.kind === 'indentation' ? 'after shifting its indentation' : 'after dropping its leading blank line'}.`,
        )
        .join(' ');
    }
    return diffPayload(editedFiles(changed), extra);
  },
});

import { readFile } from 'node:fs/promises';
import { safeResolve, relativeToRoot } from '../fs/safe-path';
import { unifiedDiff } from '../fs/unified-diff';
import type { AnyTool } from '../tools/tool';
import { parseEditBlocks } from '../tools/edit-block-parser';
import { previewEditBlocks } from '../tools/edit-block';
import { diffPayload } from '../tools/diff-payload';

// What an approval shows, in full, before the user decides (users ask to see the whole command or
// the whole diff): a shell call's command and directory; an edit's diff, computed without writing
// when the edit is a plain substitution, else the blocks as sent.

export interface ApprovalText {
  summary: string;
  detail: string;
}

type Args = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

async function filePreview(root: string, args: Args): Promise<string | undefined> {
  const path = str(args.file_path);
  const oldString = str(args.old_string);
  const newString = str(args.new_string);
  if (path === undefined || oldString === undefined || newString === undefined) return undefined;
  const resolved = safeResolve(root, str(args.root), path, { label: 'file_path' });
  if (!resolved.ok) return undefined;
  const shown = relativeToRoot(resolved.root, resolved.path);
  let before = '';
  let exists = true;
  try {
    before = (await readFile(resolved.path, 'utf8')).replace(/\r\n/g, '\n');
  } catch {
    exists = false;
  }
  const oldN = oldString.replace(/\r\n/g, '\n');
  const newN = newString.replace(/\r\n/g, '\n');
  let after: string;
  if (oldN === '') after = before + newN;
  else {
    const count = before.split(oldN).length - 1;
    if (count === 0 || (count > 1 && args.replace_all !== true)) return undefined;
    after =
      args.replace_all === true ? before.split(oldN).join(newN) : before.replace(oldN, () => newN);
  }
  return unifiedDiff(before, after, { path: shown, created: !exists }).text;
}

export async function describeForApproval(
  tool: AnyTool,
  args: unknown,
  root: string,
): Promise<ApprovalText> {
  const a = (args && typeof args === 'object' ? args : {}) as Args;
  if (tool.flags.approval === 'shell' && str(a.command) !== undefined) {
    const flags = [
      a.run_in_background === true ? 'in the background' : '',
      a.tty === true ? 'with a terminal' : '',
    ].filter(Boolean);
    return {
      summary: `Run: ${str(a.command)!.split('\n')[0]!.slice(0, 200)}`,
      detail: `$ ${str(a.command)}\n\ncwd: ${str(a.cwd) ?? root}${flags.length ? `\nruns ${flags.join(', ')}` : ''}`,
    };
  }
  // Input to a running shell (shell_session_tool write) runs code: show exactly what is typed.
  if (str(a.input) !== undefined && str(a.shell_id) !== undefined) {
    return {
      summary: `Type into ${str(a.shell_id)}: ${str(a.input)!.split('\n')[0]!.slice(0, 200)}`,
      detail: `${str(a.input)}${a.newline === false ? '' : '⏎'}\n\ninto the running shell ${str(a.shell_id)}`,
    };
  }
  if (tool.flags.approval === 'edit') {
    const preview = await filePreview(root, a).catch(() => undefined);
    const file = str(a.file_path);
    if (preview) return { summary: `Edit ${file}`, detail: preview };
    if (str(a.content) !== undefined) {
      const edited = await previewEditBlocks(root, a).catch(() => null);
      if (edited?.length) {
        const diff = diffPayload(edited);
        const names = edited.map((f) => f.shown).join(', ');
        return { summary: `Edit ${names}`, detail: String(diff.text) };
      }
      // The tool's own parser names the files: a regex over the text took closing fences for names.
      const names = parseEditBlocks(str(a.content)!).blocks.map((b) => b.file);
      return {
        summary: `Edit ${names.length ? [...new Set(names)].join(', ') : 'files'}`,
        detail: str(a.content)!,
      };
    }
    if (file) return { summary: `Edit ${file}`, detail: JSON.stringify(a, null, 2) };
  }
  return { summary: `Call ${tool.name}`, detail: JSON.stringify(args ?? {}, null, 2) };
}

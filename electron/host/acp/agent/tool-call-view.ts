import { isAbsolute, resolve } from 'node:path';
import type {
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk';
import { parseUnifiedDiff } from '../../../../shared/diff/unified-diff';
import type { ToolPayload } from '../../../../shared/tools/payload';

// How one of the app's tool calls looks to an ACP client (`mewbo acp`): its title, kind and the
// files it touches when it starts, its content when it ends (an edit's diff as ACP diff content,
// a command's output as text, an error's message). ACP paths are absolute; the app's are relative
// to the session's root.

type Args = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Output kept in a tool call's text content (characters): an editor card, not a log viewer. */
const OUTPUT_MAX_CHARS = 20_000;

export interface ToolCallStart {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

function inRoot(root: string, path: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  aider_list_dir_tool: 'search',
  lsp_tool: 'search',
  tool_search: 'search',
  aider_edit_block_tool: 'edit',
  file_edit_tool: 'edit',
  aider_shell_tool: 'execute',
  shell_session_tool: 'execute',
  update_todos: 'think',
  exit_plan_mode: 'switch_mode',
};

export function toolCallStart(name: string, rawArgs: unknown, root: string): ToolCallStart {
  const args = (rawArgs && typeof rawArgs === 'object' ? rawArgs : {}) as Args;
  const kind = KINDS[name] ?? 'other';
  const path = str(args.file_path) ?? str(args.path);
  const locations = path !== undefined ? [{ path: inRoot(root, path) }] : [];
  const command = str(args.command);
  let title = name;
  if (command !== undefined) title = `Run ${command.split('\n')[0]!.slice(0, 200)}`;
  else if (name === 'read_file' && path) title = `Read ${path}`;
  else if (name === 'aider_list_dir_tool') title = `List ${path ?? '.'}`;
  else if (kind === 'edit') title = path ? `Edit ${path}` : 'Edit files';
  else if (name === 'update_todos') title = 'Update the todo list';
  return { title, kind, locations };
}

/** A unified diff (one or more files) as ACP diffs: each hunk's old and new lines, per file. */
export function diffContent(text: string, root: string): ToolCallContent[] {
  const out: ToolCallContent[] = [];
  for (const file of parseUnifiedDiff(text)) {
    const path = file.newPath ?? file.oldPath;
    if (!path) continue;
    const oldLines: string[] = [];
    const newLines: string[] = [];
    for (const row of file.rows) {
      if (row.kind === 'context' || row.kind === 'del') oldLines.push(row.text);
      if (row.kind === 'context' || row.kind === 'add') newLines.push(row.text);
    }
    out.push({
      type: 'diff',
      path: inRoot(root, path),
      oldText: file.oldPath === null ? null : oldLines.map((l) => `${l}\n`).join(''),
      newText: newLines.map((l) => `${l}\n`).join(''),
    });
  }
  return out;
}

export function textContent(text: string): ToolCallContent {
  const cut =
    text.length > OUTPUT_MAX_CHARS
      ? `${text.slice(0, OUTPUT_MAX_CHARS)}\n… (${text.length - OUTPUT_MAX_CHARS} more characters)`
      : text;
  return { type: 'content', content: { type: 'text', text: cut } };
}

export interface ToolCallEnd {
  status: ToolCallStatus;
  title?: string;
  content: ToolCallContent[];
}

/**
 * What a finished call shows: its diff, its output, or why it failed. A command that ran in the
 * editor's terminal shows that terminal while it is `live` (a replay's ids are gone: its text).
 */
export function toolCallEnd(payload: ToolPayload, root: string, live = false): ToolCallEnd {
  const p = payload as Args;
  if (payload.kind === 'error')
    return { status: 'failed', content: [textContent(str(p.message) ?? 'The call failed.')] };
  if (payload.kind === 'diff')
    return {
      status: 'completed',
      ...(str(p.title) ? { title: str(p.title) } : {}),
      content: diffContent(str(p.text) ?? '', root),
    };
  if (payload.kind === 'shell' && live && str(p.terminal_id))
    return {
      status: 'completed',
      content: [{ type: 'terminal', terminalId: str(p.terminal_id)! }],
    };
  if (payload.kind === 'shell' && str(p.stdout) !== undefined) {
    const exit = typeof p.exit_code === 'number' ? `\n(exit code ${p.exit_code})` : '';
    return {
      status: 'completed',
      content: [textContent(`\`\`\`\n${str(p.stdout)}\n\`\`\`${exit}`)],
    };
  }
  if (payload.kind === 'file') return { status: 'completed', content: [] };
  const message = str(p.message);
  return { status: 'completed', content: message ? [textContent(message)] : [] };
}

import type { ToolItem } from '../../state/timeline-items';
import { oneLine, pluralize } from '../../lib/format';
import { readRange, shellOutput } from './payload-text';

export interface ToolDescription {
  kind: 'read' | 'diff' | 'shell' | 'generic';
  /** The verb: "Read", "Edit", "$", "Search tools". */
  title: string;
  /** What it acted on: a path, a command. */
  subject?: string;
  /** Short facts after the subject: a range, "+3 −1", "exit 0". */
  meta?: string;
  /**
   * The call ran but did not succeed: a command that exited non-zero or timed out. Its card looks
   * failed and its meta (the exit code) is said as a failure, not as small grey text.
   */
  unsuccessful?: boolean;
  durationMs?: number;
  /** No duration in the header: a background start takes no time worth showing. */
  noDuration?: boolean;
  openByDefault: boolean;
}

const EDIT_TOOLS = new Set(['file_edit_tool', 'aider_edit_block_tool']);
/**
 * An external ACP agent's tool call is named `acp_<kind>` by the host (its ACP ToolKind); its
 * card says the kind as a verb and the agent's own title as the subject.
 */
const ACP_VERBS: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Mode',
};
/** Shell output this short is shown without a click. */
const SHORT_OUTPUT_LINES = 30;

type Args = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** The file names of SEARCH/REPLACE blocks: the line right before each opening fence. */
function blockFiles(content: unknown): string | undefined {
  if (typeof content !== 'string') return undefined;
  const names = [...content.matchAll(/^([^\n`<=>][^\n]*)\n```/gm)].map((m) => m[1]!.trim());
  return names.length ? [...new Set(names)].join(', ') : undefined;
}

/** How a tool call reads in its card header, from the tool's name, arguments and payload. */
export function describeTool(item: ToolItem): ToolDescription {
  const args = (item.args && typeof item.args === 'object' ? item.args : {}) as Args;
  const r = item.result;
  const failed = r?.kind === 'error';

  if (item.name === 'read_file') {
    return {
      kind: 'read',
      title: 'Read',
      subject: str(r?.path) ?? str(args.path),
      meta: failed ? undefined : readRange(r),
      openByDefault: failed,
    };
  }
  if (EDIT_TOOLS.has(item.name) || r?.kind === 'diff') {
    const files = Array.isArray(r?.files)
      ? (r.files as unknown[]).filter((f): f is string => typeof f === 'string')
      : [];
    const subject = files.length
      ? files.join(', ')
      : (str(args.file_path) ?? blockFiles(args.content) ?? str(r?.title));
    const meta =
      r?.kind === 'diff' ? `+${num(r.additions) ?? 0} −${num(r.deletions) ?? 0}` : undefined;
    // Until it lands there is no diff to show (its approval card shows the change in full).
    return { kind: 'diff', title: 'Edit', subject, meta, openByDefault: Boolean(r) };
  }
  if (item.name === 'aider_shell_tool') {
    const shellId = str(r?.shell_id);
    const exit = num(r?.exit_code);
    const meta = shellId
      ? `background · ${shellId}`
      : exit !== undefined
        ? `exit ${exit}${r?.timed_out ? ' (timed out)' : ''}`
        : undefined;
    const lines = shellOutput(r).split('\n').length;
    const unsuccessful = (exit !== undefined && exit !== 0) || r?.timed_out === true;
    return {
      kind: 'shell',
      title: '$',
      subject: str(args.command) ?? str(r?.command),
      meta,
      unsuccessful,
      durationMs: num(r?.duration_ms),
      noDuration: Boolean(shellId),
      openByDefault: failed || unsuccessful || lines <= SHORT_OUTPUT_LINES || Boolean(shellId),
    };
  }
  if (item.name === 'shell_session_tool') {
    const op = str(args.operation) ?? 'read';
    const status = str(r?.status);
    const exit = num(r?.exit_code);
    return {
      kind: 'shell',
      title: `Shell ${op}`,
      subject: [str(args.shell_id), op === 'write' ? oneLine(args.input, 60) : undefined]
        .filter(Boolean)
        .join(' ← '),
      meta: status ? `${status}${exit !== undefined ? ` · exit ${exit}` : ''}` : undefined,
      unsuccessful: exit !== undefined && exit !== 0,
      openByDefault: failed,
    };
  }
  if (item.name === 'aider_list_dir_tool') {
    const entries = Array.isArray(r?.entries) ? r.entries.length : num(r?.count);
    return {
      kind: 'generic',
      title: 'List',
      subject: str(args.path) ?? '.',
      meta: entries !== undefined ? pluralize(entries, 'entry', 'entries') : undefined,
      openByDefault: failed,
    };
  }
  if (item.name === 'lsp_tool') {
    return {
      kind: 'generic',
      title: `LSP ${str(args.operation) ?? ''}`.trim(),
      subject: str(args.file_path),
      openByDefault: failed,
    };
  }
  if (item.name === 'tool_search') {
    return {
      kind: 'generic',
      title: 'Search tools',
      subject: str(args.query),
      openByDefault: failed,
    };
  }
  if (item.name === 'list_projects' || item.name === 'switch_project') {
    return {
      kind: 'generic',
      title: item.name === 'list_projects' ? 'List projects' : 'Switch project',
      subject: str(args.project),
      openByDefault: failed,
    };
  }
  const acp = /^acp_(.+)$/.exec(item.name);
  if (acp) {
    const subject = str(args.title);
    // A command the agent ran in one of the client's terminals: the shell card, with its console.
    if (r?.kind === 'shell') {
      const exit = num(r.exit_code);
      return {
        kind: 'shell',
        title: '$',
        subject: str(r.command) ?? subject,
        meta: exit !== undefined ? `exit ${exit}` : undefined,
        unsuccessful: exit !== undefined && exit !== 0,
        openByDefault: true,
      };
    }
    return {
      kind: 'generic',
      title: ACP_VERBS[acp[1]!] ?? 'Tool',
      subject,
      openByDefault: failed,
    };
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(item.name);
  if (mcp) {
    return {
      kind: 'generic',
      title: `${mcp[1]} · ${mcp[2]}`,
      subject: oneLine(args, 80),
      openByDefault: failed,
    };
  }
  return { kind: 'generic', title: item.name, subject: oneLine(args, 80), openByDefault: failed };
}

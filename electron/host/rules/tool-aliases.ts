// Claude Code's tool names, as they appear in rules and hook matchers copied from a
// `.claude/settings.json`, and the product's tools each one stands for. A rule or matcher written
// with the product's own name applies to that tool only.

export const SHELL_TOOL = 'aider_shell_tool';
export const SESSION_TOOL = 'shell_session_tool';
export const READ_TOOL = 'read_file';
export const EDIT_TOOLS = ['file_edit_tool', 'aider_edit_block_tool'] as const;
export const LIST_TOOL = 'aider_list_dir_tool';

export const CLAUDE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Bash: [SHELL_TOOL, SESSION_TOOL],
  Read: [READ_TOOL],
  Edit: EDIT_TOOLS,
  Write: EDIT_TOOLS,
  MultiEdit: EDIT_TOOLS,
  NotebookEdit: EDIT_TOOLS,
  LS: [LIST_TOOL],
  Glob: [LIST_TOOL],
  Task: ['spawn_agent'],
  TodoWrite: ['update_todos'],
};

/** The product tools a rule's or matcher's tool name covers. */
export function toolsNamed(name: string): readonly string[] {
  return CLAUDE_ALIASES[name] ?? [name];
}

const CLAUDE_NAME_OF: Readonly<Record<string, string>> = {
  [SHELL_TOOL]: 'Bash',
  [READ_TOOL]: 'Read',
  file_edit_tool: 'Edit',
  aider_edit_block_tool: 'Edit',
  [LIST_TOOL]: 'LS',
};

/** The name a hook's JSON input shows: Claude Code's where one exists, so scripts written for it match. */
export function claudeNameOf(tool: string): string {
  return CLAUDE_NAME_OF[tool] ?? tool;
}

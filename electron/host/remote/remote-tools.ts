// The built-in tools a session on a remote project runs on the remote (issue #29 part 3): the
// ones that reach files, shells, language servers. The rest (todos, questions, panels, the
// project list, device tools, MCP servers of the user's config) run in the app, which holds the
// session, the UI and the keys.

export const REMOTE_TOOL_NAMES: ReadonlySet<string> = new Set([
  'read_file',
  'aider_edit_block_tool',
  'file_edit_tool',
  'aider_list_dir_tool',
  'aider_shell_tool',
  'shell_session_tool',
  'lsp_tool',
]);

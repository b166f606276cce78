import type { AnyTool } from './tool';

// The built-in tools by name, each loaded on its own: `mewbo tool NAME` runs one tool, so it loads
// that tool's module and what it imports, not every tool's (the shell tools bring the shell,
// sandbox and egress-proxy code; the edit tools the diff and rule matchers: issue #26 part 4,
// start-up). builtin-tools.ts stays the registry the host and `mewbo mcp` load whole; the test
// of this index holds the two to the same names and the same tool objects.

export const builtinToolLoaders: Readonly<Record<string, () => Promise<AnyTool>>> = {
  read_file: async () => (await import('./read-file')).readFileTool,
  aider_edit_block_tool: async () => (await import('./edit-block')).editBlockTool,
  file_edit_tool: async () => (await import('./file-edit')).fileEditTool,
  aider_list_dir_tool: async () => (await import('./list-dir')).listDirTool,
  aider_shell_tool: async () => (await import('./shell')).shellTool,
  shell_session_tool: async () => (await import('./shell-session')).shellSessionTool,
  lsp_tool: async () => (await import('./lsp')).lspTool,
  update_todos: async () => (await import('./update-todos')).updateTodosTool,
  ask_user_question: async () => (await import('./ask-user-question')).askUserQuestionTool,
  present_ui: async () => (await import('./present-ui')).presentUiTool,
  list_projects: async () => (await import('./list-projects')).listProjectsTool,
  switch_project: async () => (await import('./switch-project')).switchProjectTool,
};

/** The tool named `name`, its module loaded now; undefined for a name that is no built-in tool. */
export async function loadBuiltinTool(name: string): Promise<AnyTool | undefined> {
  return Object.hasOwn(builtinToolLoaders, name) ? builtinToolLoaders[name]!() : undefined;
}

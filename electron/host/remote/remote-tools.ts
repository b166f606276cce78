import type { ToolPayload } from '../../../shared/tools/payload';
import type { PassiveNote } from '../lsp/passive-diagnostics';
import type { ToolContext } from '../tools/tool';

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

/**
 * The seam where a tool call leaves for the remote (agent/dispatch.ts executeTool asks it first):
 * the same tool's code runs there, so no tool is written twice.
 */
export interface RemoteTools {
  /** The session's remote project URL, or null when its project is a local folder. */
  remoteOf(sessionId: string): Promise<string | null>;
  /** Runs `tool` on the session's remote; what it emitted there is appended through ctx.emit. */
  run(ctx: ToolContext, url: string, tool: string, args: unknown): Promise<ToolPayload>;
  /**
   * The local folder holding the policy files of the project at `url` (instructions, settings,
   * skills, commands, `.mcp.json`), just copied from its host: the app's readers and workspace
   * trust read a remote project there (remote-project-mirror.ts).
   */
  policyRoot(url: string): Promise<string>;
  /**
   * The passive diagnostics note after an edit of `files`, from the language servers on the
   * session's host (null: nothing to say, or the host could not be asked).
   */
  diagnosticsAfterEdit(
    sessionId: string,
    url: string,
    root: string,
    files: string[],
  ): Promise<PassiveNote | null>;
}

import { editBlockTool } from './edit-block';
import { fileEditTool } from './file-edit';
import { listDirTool } from './list-dir';
import { readFileTool } from './read-file';
import { lspTool } from './lsp';
import { listProjectsTool } from './list-projects';
import { switchProjectTool } from './switch-project';
import { updateTodosTool } from './update-todos';
import { askUserQuestionTool } from './ask-user-question';
import { presentUiTool } from './present-ui';
import { shellTool } from './shell';
import { shellSessionTool } from './shell-session';
import type { AnyTool } from './tool';

// The registry of built-in tools: one file per tool, one line here. Binding decides per session
// and step which of these the model is offered; `mewbo tool` and `mewbo mcp` run them directly.
export const builtinTools: AnyTool[] = [
  readFileTool,
  editBlockTool,
  fileEditTool,
  listDirTool,
  shellTool,
  shellSessionTool,
  lspTool,
  updateTodosTool,
  askUserQuestionTool,
  presentUiTool,
  listProjectsTool,
  switchProjectTool,
];

export function findBuiltinTool(name: string): AnyTool | undefined {
  return builtinTools.find((t) => t.name === name);
}

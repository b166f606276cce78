import type { AgentConfig } from '../config/schema';

// Which of the two edit backends a session offers: `agent.edit_tool` pins one; otherwise the
// active model decides (models that prefer structured JSON tool calls get structured_patch).

export type EditBackend = 'search_replace_block' | 'structured_patch';

/** The tool that implements each backend. */
export const EDIT_BACKEND_TOOLS: Record<EditBackend, string> = {
  search_replace_block: 'aider_edit_block_tool',
  structured_patch: 'file_edit_tool',
};

/** Model name prefixes that default to structured_patch (seed: GPT-5, o-series, Codex, GPT-4). */
const STRUCTURED_PATCH_PREFIXES = ['gpt-5', 'o3', 'o4', 'codex', 'gpt-4'];

/** The bare model name: "openai/gpt-5-mini" and "GPT-5" both become "gpt-5...". */
function bareModelName(model: string): string {
  const name = model.trim().toLowerCase();
  return name.slice(name.lastIndexOf('/') + 1);
}

export function chooseEditBackend(
  agent: Pick<AgentConfig, 'edit_tool'>,
  modelName?: string | null,
): EditBackend {
  if (agent.edit_tool) return agent.edit_tool;
  const bare = modelName ? bareModelName(modelName) : '';
  return STRUCTURED_PATCH_PREFIXES.some((p) => bare.startsWith(p))
    ? 'structured_patch'
    : 'search_replace_block';
}

/** True for a tool that is one of the edit backends but not the chosen one (binding drops it). */
export function isUnchosenEditTool(toolName: string, chosen: EditBackend): boolean {
  return (
    Object.values(EDIT_BACKEND_TOOLS).includes(toolName) && EDIT_BACKEND_TOOLS[chosen] !== toolName
  );
}

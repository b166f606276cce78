import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { PermissionMode } from '../config/schema';
import type { EditBackend } from '../tools/edit-backend';
import { isUnchosenEditTool } from '../tools/edit-backend';
import type { AnyTool } from '../tools/tool';
import { PLAN_TOOL_NAME } from './constants';

// The one function that decides what the model is offered, per session and per step (seed):
// root agent vs sub-agent, act vs plan mode, the client's capabilities, headless runs, auto
// workspace mode, the chosen edit backend, a sub-agent's narrowed tool list, then deferral
// (tool_search). Every exclusion is reported with its reason, which the tests read as a table.

export interface BindInput {
  /** Every candidate: built-ins, the agent's own tools, MCP tools, device tools. */
  tools: readonly AnyTool[];
  agent: 'root' | 'sub';
  mode: PermissionMode;
  capabilities: readonly ClientCapability[];
  headless: boolean;
  workspaceMode: 'auto' | 'fixed';
  editBackend: EditBackend;
  /** A sub-agent's narrowed set (names). tool_search is exempt: deferral adds it. */
  allowedTools?: readonly string[];
  /** tool-search/applyDeferral over what survived every other condition. */
  deferral?: (granted: AnyTool[]) => { bound: AnyTool[]; deferredNames: string[] };
}

export type ExclusionReason =
  | 'root_only'
  | 'plan_mode'
  | 'act_mode'
  | 'capability'
  | 'headless'
  | 'workspace_mode'
  | 'edit_backend'
  | 'not_allowed'
  | 'duplicate';

export interface BindResult {
  bound: AnyTool[];
  deferredNames: string[];
  excluded: { name: string; reason: ExclusionReason }[];
}

function exclusion(tool: AnyTool, input: BindInput): ExclusionReason | null {
  const f = tool.flags;
  if (tool.name === PLAN_TOOL_NAME) {
    if (input.agent !== 'root') return 'root_only';
    return input.mode === 'plan' ? null : 'act_mode';
  }
  if (f.rootOnly && input.agent !== 'root') return 'root_only';
  if (input.mode === 'plan' && (!f.readOnly || f.actModeOnly)) return 'plan_mode';
  if (f.needsCapability && !input.capabilities.includes(f.needsCapability)) return 'capability';
  if (f.needsInteractive && input.headless) return 'headless';
  if (f.autoWorkspaceOnly && input.workspaceMode !== 'auto') return 'workspace_mode';
  if (isUnchosenEditTool(tool.name, input.editBackend)) return 'edit_backend';
  if (input.allowedTools && !input.allowedTools.includes(tool.name)) return 'not_allowed';
  return null;
}

export function bindTools(input: BindInput): BindResult {
  const excluded: BindResult['excluded'] = [];
  const granted: AnyTool[] = [];
  const seen = new Set<string>();
  for (const tool of input.tools) {
    const reason = seen.has(tool.name) ? 'duplicate' : exclusion(tool, input);
    if (reason) excluded.push({ name: tool.name, reason });
    else {
      granted.push(tool);
      seen.add(tool.name);
    }
  }
  if (!input.deferral) return { bound: granted, deferredNames: [], excluded };
  const { bound, deferredNames } = input.deferral(granted);
  return { bound, deferredNames, excluded };
}

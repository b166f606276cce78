import type { PermissionMode } from '../config/schema';
import type { AnyTool } from '../tools/tool';
import { classifyCall, decideApproval } from '../agent/permissions';

// Which built-in tools `mewbo mcp` serves, and which calls the permission mode refuses. An MCP
// client is a headless caller with nobody at a desk to approve anything: tools that need an
// interactive client, a client capability, or the app's own agent/UI (root-only, workspace
// switching) are left out; the rest are served with the same payloads as in a session.

/** True for a tool that makes sense for an MCP client. */
export function servesOverMcp(tool: AnyTool): boolean {
  const f = tool.flags;
  return !f.needsInteractive && !f.needsCapability && !f.rootOnly && !f.autoWorkspaceOnly;
}

/** The tools listed to the client: in plan mode only read-only ones. */
export function exposedTools(tools: readonly AnyTool[], mode: PermissionMode): AnyTool[] {
  return tools.filter((t) => servesOverMcp(t) && (mode !== 'plan' || t.flags.readOnly));
}

/**
 * Why this mode refuses this call of `tool` (its parsed arguments decide, as in a session: a read
 * of shell_session_tool is a read, a write to a shell runs code), or null when it may run.
 */
export function refusalFor(tool: AnyTool, args: unknown, mode: PermissionMode): string | null {
  if (classifyCall(tool, args).readOnly) return null;
  // A write tool that declares no approval kind is treated as an edit (the cautious default).
  const kind =
    tool.flags.approval === undefined && !tool.classify
      ? 'edit'
      : decideApproval({ tool, args, mode: 'ask' }).kind;
  const retry =
    'start the server with --permission-mode accept-edits (edits) or auto (edits and shell)';
  switch (mode) {
    case 'auto':
      return null;
    case 'plan':
      return `${tool.name} changes things and this MCP server runs in plan mode (read-only tools only)`;
    case 'ask':
      if (kind === 'none') return null;
      return `${tool.name} needs approval in permission mode 'ask', and an MCP server has nobody to approve it; ${retry}`;
    case 'accept-edits':
      return kind === 'shell' || kind === 'scope'
        ? `${tool.name} runs commands, which need approval in permission mode 'accept-edits', and an MCP server has nobody to approve it; start the server with --permission-mode auto`
        : null;
  }
}

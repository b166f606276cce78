import type { PermissionMode } from '../config/schema';
import type { AnyTool } from '../tools/tool';

// The permission policy: which calls need the user's approval in each mode.
//   ask           edits and shell commands need approval (the default)
//   accept-edits  edits run at once; shell commands need approval
//   auto          nothing needs approval
//   plan          only read-only tools are bound; anything else would need approval
// A tool's `approval` flag says what the policy treats it as; unset means it needs none.

export function needsApproval(tool: AnyTool, mode: PermissionMode): boolean {
  const kind = tool.flags.approval ?? 'none';
  if (kind === 'none') return false;
  switch (mode) {
    case 'auto':
      return false;
    case 'accept-edits':
      return kind === 'shell';
    case 'ask':
    case 'plan':
      return true;
  }
}

/** What the model reads when a headless run had nobody to approve a call. */
export function headlessDenialReason(tool: AnyTool, mode: PermissionMode): string {
  const what = tool.flags.approval === 'shell' ? 'Shell commands' : 'Edits';
  const rerun =
    tool.flags.approval === 'shell'
      ? '--permission-mode auto'
      : '--permission-mode accept-edits (or auto)';
  return (
    `${what} need approval in "${mode}" mode, and this headless run has nobody to approve them. ` +
    `The call was not run. Continue without it, or tell the user to rerun with ${rerun}.`
  );
}

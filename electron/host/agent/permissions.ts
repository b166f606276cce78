import type { PermissionMode } from '../config/schema';
import type { AnyTool, ApprovalKind, CallClass } from '../tools/tool';

// The permission policy: whether one call needs the user's approval. It is decided per call, from
// what the call does with these arguments (its CallClass), never from the tool's name alone:
// shell_session_tool reading output is a read, writing to an interactive shell runs code.
//   ask           edits, shell commands and scope changes need approval (the default)
//   accept-edits  edits run at once; shell commands and scope changes need approval
//   auto          nothing needs approval
//   plan          only read-only tools are bound; anything else would need approval
// Permission rules and hooks (rules/call-gate.ts) decide first; this is what the mode says when
// no rule or hook did. Extend it through ApprovalInput, so there stays one decision.

export interface ApprovalInput {
  tool: AnyTool;
  /** The call's parsed arguments. */
  args: unknown;
  mode: PermissionMode;
}

export interface ApprovalDecision {
  ask: boolean;
  /** What the call was treated as. */
  kind: ApprovalKind;
}

/** What this call does: the tool's own per-call classification, else its static flags. */
export function classifyCall(tool: AnyTool, args: unknown): CallClass {
  const fallback: CallClass = {
    readOnly: tool.flags.readOnly,
    approval: tool.flags.approval ?? 'none',
  };
  if (!tool.classify) return fallback;
  try {
    return tool.classify(args);
  } catch {
    // Arguments a classifier cannot read are not a reason to ask less: the tool's static worst.
    return {
      readOnly: false,
      approval: fallback.approval === 'none' ? 'shell' : fallback.approval,
    };
  }
}

export function decideApproval(input: ApprovalInput): ApprovalDecision {
  const { approval: kind } = classifyCall(input.tool, input.args);
  return { kind, ask: kind !== 'none' && modeAsks(kind, input.mode) };
}

function modeAsks(kind: Exclude<ApprovalKind, 'none'>, mode: PermissionMode): boolean {
  switch (mode) {
    case 'auto':
      return false;
    case 'accept-edits':
      return kind !== 'edit';
    case 'ask':
    case 'plan':
      return true;
  }
}

const WHAT: Record<Exclude<ApprovalKind, 'none'>, string> = {
  shell: 'Shell commands (and input to a running shell)',
  edit: 'Edits',
  scope: 'Switching projects',
  device: 'Acts on the phone (its screen, alarms, texts)',
};

/** What the model reads when a headless run had nobody to approve a call. */
export function headlessDenialReason(kind: ApprovalKind, mode: PermissionMode): string {
  const what = kind === 'none' ? 'This call' : WHAT[kind];
  const rerun =
    kind === 'edit' ? '--permission-mode accept-edits (or auto)' : '--permission-mode auto';
  return (
    `${what} need approval in "${mode}" mode, and this headless run has nobody to approve them. ` +
    `The call was not run. Continue without it, or tell the user to rerun with ${rerun}.`
  );
}

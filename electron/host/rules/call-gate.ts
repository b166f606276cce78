import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { runEventHooks } from '../hooks/hook-runner';
import type { PermissionMode } from '../config/schema';
import type { LoadedSettings, RulesService } from './rules-service';

// Before a call runs: its PreToolUse hooks, then the permission rules. The answer is what happens
// next: blocked (the payload the model reads), allow (run without asking), ask (ask the user,
// whatever the mode), or mode (no rule or hook decided: the permission mode does). A deny rule
// holds in every mode, and over a hook's "allow" too: hooks may tighten, never loosen, a deny.

export type Gate =
  | { kind: 'blocked'; payload: ToolPayload }
  | { kind: 'allow' }
  | { kind: 'ask'; why: string }
  | { kind: 'mode' };

export interface GateInput {
  rules: RulesService;
  settings: LoadedSettings;
  tool: string;
  args: Record<string, unknown>;
  root: string;
  sessionId: string;
  agentId: string;
  callId: string;
  mode: PermissionMode;
  signal: AbortSignal;
  append(event: SessionEventBody): Promise<void>;
}

export async function gateCall(i: GateInput): Promise<Gate> {
  const hook = await runEventHooks({
    event: 'PreToolUse',
    hooks: i.settings.hooks,
    root: i.root,
    sessionId: i.sessionId,
    agentId: i.agentId,
    tool: i.tool,
    callId: i.callId,
    fields: { tool_input: i.args, permission_mode: i.mode },
    env: i.rules.env,
    confine: i.rules.confineHook,
    signal: i.signal,
    append: i.append,
  });
  if (hook.blocked) return { kind: 'blocked', payload: errorPayload('hook_blocked', hook.reason) };
  if (hook.permission === 'deny')
    return {
      kind: 'blocked',
      payload: errorPayload(
        'hook_denied',
        hook.permissionReason || 'A PreToolUse hook denied this call.',
      ),
    };
  const verdict = await i.rules.decide(i.settings, { tool: i.tool, args: i.args, root: i.root });
  if (verdict?.kind === 'deny') {
    const r = verdict.rule;
    const where = r.file ? `${r.file}${r.line ? `:${r.line}` : ''}` : `this session's rules`;
    return {
      kind: 'blocked',
      payload: errorPayload(
        'denied_by_rule',
        `The user's permission rule deny "${r.rule.raw}" (${where}) blocks this call. Do not retry it; take another approach or ask the user.`,
      ),
    };
  }
  if (hook.permission === 'ask')
    return { kind: 'ask', why: hook.permissionReason || 'a PreToolUse hook asked for approval' };
  if (verdict?.kind === 'ask')
    return { kind: 'ask', why: verdict.why ?? `ask rule "${verdict.rule.rule.raw}"` };
  if (hook.permission === 'allow' || verdict?.kind === 'allow') return { kind: 'allow' };
  return { kind: 'mode' };
}

export async function postToolHooks(
  i: Omit<GateInput, 'mode'> & { payload: ToolPayload },
): Promise<void> {
  await runEventHooks({
    event: 'PostToolUse',
    hooks: i.settings.hooks,
    root: i.root,
    sessionId: i.sessionId,
    agentId: i.agentId,
    tool: i.tool,
    callId: i.callId,
    fields: { tool_input: i.args, tool_response: i.payload },
    env: i.rules.env,
    confine: i.rules.confineHook,
    signal: i.signal,
    append: i.append,
  });
}

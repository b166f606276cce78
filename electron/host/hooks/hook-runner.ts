import type { SessionEventBody } from '../../../shared/protocol/events';
import { errorPayload } from '../../../shared/tools/payload';
import { claudeNameOf } from '../rules/tool-aliases';
import { HOOK_EVENT_OUTPUT_MAX_CHARS, type HookEventName } from './constants';
import type { HookCommand } from './hook-config';
import type { HookConfine } from './hook-sandbox';
import { runHook, type HookProcessResult } from './run-hook';

// Runs the hooks of one event (in parallel, as Claude Code does) and reads their answers with
// Claude Code's contract: exit 0 goes on (UserPromptSubmit and SessionStart stdout becomes
// context); exit 2 blocks, its stderr going to the model (PreToolUse, PostToolUse, Stop) or the
// user (UserPromptSubmit); any other exit is a failure shown on the card, and the run goes on.
// JSON on stdout may say `decision: "block"` with a `reason`, `permissionDecision` (PreToolUse,
// top level or in hookSpecificOutput) and `additionalContext`. Each run is a `hook_run` event.
// A project's hook starts confined (hook-sandbox.ts); one that may not start is a failed run
// whose stderr says why.

export interface HookEventInput {
  event: HookEventName;
  hooks: readonly HookCommand[];
  root: string;
  sessionId: string;
  agentId?: string;
  tool?: string;
  callId?: string;
  /** Event-specific fields of the JSON input (tool_input, prompt, ...). */
  fields: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** Starts a project's hooks confined (hook-sandbox.ts); absent: a project's hook is not run. */
  confine?: HookConfine;
  signal?: AbortSignal;
  append(event: SessionEventBody): Promise<void>;
}

export interface HookOutcome {
  /** Exit 2 or `decision: "block"` from any hook. */
  blocked: boolean;
  /** Why (the blocking hooks' stderr or reason). */
  reason: string;
  /** PreToolUse: the strongest permissionDecision given (deny > ask > allow). */
  permission?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
}

interface Parsed {
  decision?: string;
  reason?: string;
  permission?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
  context?: string;
}

function parseJsonOut(stdout: string): Parsed | null {
  const t = stdout.trim();
  if (!t.startsWith('{')) return null;
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(t) as Record<string, unknown>;
  } catch {
    return null;
  }
  const specific = (j.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const pd = (specific.permissionDecision ?? j.permissionDecision) as unknown;
  const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    decision: s(j.decision),
    reason: s(j.reason) ?? s(j.stopReason),
    permission: pd === 'allow' || pd === 'deny' || pd === 'ask' ? pd : undefined,
    permissionReason: s(specific.permissionDecisionReason) ?? s(j.permissionDecisionReason),
    context: s(specific.additionalContext) ?? s(j.additionalContext),
  };
}

const clip = (s: string) =>
  s.length > HOOK_EVENT_OUTPUT_MAX_CHARS ? `${s.slice(0, HOOK_EVENT_OUTPUT_MAX_CHARS)}\n…` : s;
const RANK = { allow: 0, ask: 1, deny: 2 } as const;
const CONTEXT_EVENTS: readonly HookEventName[] = ['UserPromptSubmit', 'SessionStart'];
const MODEL_BLOCK_EVENTS: readonly HookEventName[] = ['PostToolUse', 'Stop'];

/** A project's hook as the launcher starts it, or why it is not run. */
function confined(
  i: HookEventInput,
  command: string,
  env: NodeJS.ProcessEnv,
): ReturnType<HookConfine> {
  if (!i.confine)
    return Promise.resolve({
      refused: errorPayload(
        // Stryker disable next-line StringLiteral: only the message of a refusal reaches the hook_run event
        'sandbox_unavailable',
        "a project's hook is not run: nothing here can confine it, and it never runs unconfined",
      ),
    });
  return i.confine(i.sessionId, i.root, ['/bin/sh', '-c', command], env);
}

/** The result of a hook that was not started: a failure the card shows, and the run goes on. */
export function hookNotRun(why: string): HookProcessResult {
  return { exitCode: null, signal: null, stdout: '', stderr: why, timedOut: false, durationMs: 0 };
}

export async function runEventHooks(i: HookEventInput): Promise<HookOutcome> {
  const hooks = i.hooks.filter((h) => h.event === i.event && (!i.tool || h.test(i.tool)));
  const outcome: HookOutcome = { blocked: false, reason: '' };
  // Stryker disable next-line ConditionalExpression: with no hook, what follows returns the same outcome; this only skips the work
  if (!hooks.length) return outcome;
  const input = {
    session_id: i.sessionId,
    cwd: i.root,
    hook_event_name: i.event,
    ...(i.tool ? { tool_name: claudeNameOf(i.tool), mewbo_tool_name: i.tool } : {}),
    ...i.fields,
  };
  const env = {
    ...i.env,
    CLAUDE_PROJECT_DIR: i.root,
    MEWBO_PROJECT_DIR: i.root,
    MEWBO_SESSION_ID: i.sessionId,
  };
  const results = await Promise.all(
    hooks.map(async (h) => {
      const start = h.scope === 'project' ? await confined(i, h.command, env) : { env };
      if ('refused' in start) return { h, r: hookNotRun(start.refused.message) };
      // A project on an SSH host: the hook runs there, confined by the host's sandbox.
      if ('remote' in start)
        return {
          h,
          r: await start.remote({ command: h.command, input, timeoutMs: h.timeoutS * 1000 }),
        };
      const r = await runHook({
        command: h.command,
        ...start,
        cwd: i.root,
        input,
        timeoutMs: h.timeoutS * 1000,
        signal: i.signal,
      });
      return { h, r };
    }),
  );
  const reasons: string[] = [];
  for (const { h, r } of results) {
    const json = r.exitCode === 0 ? parseJsonOut(r.stdout) : null;
    const blocked = !r.timedOut && (r.exitCode === 2 || json?.decision === 'block');
    const why = r.exitCode === 2 ? r.stderr.trim() : (json?.reason ?? '');
    let toModel: string | undefined;
    if (blocked) {
      reasons.push(why || `blocked by the ${i.event} hook \`${h.command}\``);
      if (MODEL_BLOCK_EVENTS.includes(i.event)) toModel = why || undefined;
    } else if (r.exitCode === 0 && CONTEXT_EVENTS.includes(i.event)) {
      toModel = (json ? json.context : r.stdout.trim()) || undefined;
      // Stryker disable next-line ConditionalExpression: json is null unless the hook exited 0
    } else if (r.exitCode === 0 && json?.context) toModel = json.context;
    if (json?.permission) {
      if (!outcome.permission || RANK[json.permission] > RANK[outcome.permission]) {
        outcome.permission = json.permission;
        outcome.permissionReason = json.permissionReason ?? json.reason;
      }
    }
    await i.append({
      type: 'hook_run',
      hook_event: i.event,
      command: h.command,
      scope: h.scope,
      ...(i.tool ? { tool_name: i.tool } : {}),
      ...(i.callId ? { call_id: i.callId } : {}),
      agent_id: i.agentId ?? 'root',
      outcome: r.timedOut ? 'timeout' : blocked ? 'blocked' : r.exitCode === 0 ? 'ok' : 'failed',
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      stdout: clip(r.stdout),
      stderr: clip(
        r.timedOut
          ? `${r.stderr}${r.stderr ? '\n' : ''}killed after ${h.timeoutS} s (timeout), with its process group`
          : r.stderr,
      ),
      ...(toModel ? { to_model: clip(toModel) } : {}),
    });
  }
  if (reasons.length) {
    outcome.blocked = true;
    outcome.reason = reasons.join('\n');
  }
  return outcome;
}

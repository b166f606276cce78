import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { REMOTE_TOOL_NAMES, type RemoteTools } from '../remote/remote-tools';
import { policyRootOf } from '../remote/policy-root';
import type { ModelToolCall } from '../models/types';
import { parseToolArgs } from '../tools/parse-args';
import type { ToolServices } from '../tools/services';
import type { AnyTool, ToolContext } from '../tools/tool';
import { describeForApproval } from './approval-detail';
import { newApprovalId } from './ids';
import { classifyCall, decideApproval, headlessDenialReason } from './permissions';
import type { AgentSpec, ApprovalVerdict, RunContext } from './run-context';
import { abortReason, RunAborted } from './stop-reason';
import { gateCall, postToolHooks, type Gate } from '../rules/call-gate';
import { policyNote, policyRefusal, policyTargets, unallowedTargets } from '../rules/policy-writes';
import { runEventHooks } from '../hooks/hook-runner';
import { loadNestedInstructions } from '../instructions/nested-instructions';

// Runs one step's tool calls. Consecutive read-only calls run in parallel; every other call
// (shell, edits, anything that writes) runs alone, in the order the model gave, so a shell or an
// edit never runs beside another write. A tool's error, a bad argument, a denial or a tool that
// throws all become error results the model reads: nothing here ends the run except a stop.

export interface StepAgent {
  spec: AgentSpec;
  root: string;
  bound: readonly AnyTool[];
}

const STOPPED = () =>
  errorPayload('stopped', 'The user stopped the run before this call finished.');

export function deniedPayload(v: Extract<ApprovalVerdict, { allow: false }>): ToolPayload {
  if (v.by === 'policy') return errorPayload('approval_required', v.reason);
  return errorPayload(
    'denied',
    `The user denied this call${v.reason ? `: ${v.reason}` : '.'} Do not retry it unchanged; take another approach or ask.`,
  );
}

/**
 * What judging one call reads of its run. A RunContext has it all; an external agent's turn
 * (acp/client) gives the same for the calls its agent makes through the client's fs and terminals,
 * so they are judged here, by the same rules, hooks, modes and approvals, not by a second judge.
 */
export type JudgeScope = Pick<
  RunContext,
  | 'session'
  | 'state'
  | 'config'
  | 'headless'
  | 'signal'
  | 'waits'
  | 'append'
  | 'beginWait'
  | 'servicesFor'
>;

/** The agent a call is judged for: its id (rules and hooks name it) and its root. */
export type JudgedAgent = Pick<StepAgent, 'root'> & { spec: Pick<AgentSpec, 'id'> };

async function requestApproval(
  run: JudgeScope,
  agent: JudgedAgent,
  tool: AnyTool,
  callId: string,
  args: unknown,
  gate: Gate,
  /**
   * The policy files this call writes (`targets`) and those of them no allow rule names
   * (`unallowed`): any of the latter make it an approval in every mode.
   */
  {
    targets,
    unallowed,
    approved,
  }: { targets: readonly string[]; unallowed: readonly string[]; approved: () => boolean },
): Promise<ApprovalVerdict> {
  const mode = run.state.permissionMode(run.config.permission_mode);
  if (gate.kind === 'allow' && !unallowed.length) return { allow: true };
  const policy = decideApproval({ tool, args, mode });
  if (gate.kind !== 'ask' && !policy.ask && !unallowed.length) return { allow: true };
  // Asked only now, when the call would otherwise be an approval: an approval is used up once.
  if (!unallowed.length && approved()) return { allow: true };
  const described = await describeForApproval(tool, args, agent.root);
  const { detail } = described;
  const summary = unallowed.length
    ? `${described.summary} (${policyNote(unallowed)})`
    : described.summary;
  const approval_id = newApprovalId();
  // "Always allow" writes through the rules service: without one there is nothing to offer.
  const suggested = await run
    .servicesFor(agent.spec.id)
    .rules?.suggest(tool.name, args, agent.root);
  await run.append({
    type: 'approval_request',
    approval_id,
    call_id: callId,
    tool: tool.name,
    summary,
    detail,
    ...(suggested ? { suggested_rule: suggested } : {}),
    ...(unallowed.length ? { policy_files: [...targets] } : {}),
  });
  if (!run.headless) notifyHooks(run, agent, `Mewbo needs your permission to use ${tool.name}`);
  if (run.headless) {
    const reason = unallowed.length
      ? policyRefusal(unallowed, 'this headless run has nobody to approve it')
      : gate.kind === 'ask'
        ? `This call needs approval (${gate.why}), and this headless run has nobody to approve it. The call was not run.`
        : headlessDenialReason(policy.kind, mode);
    await run.append({
      type: 'approval_decision',
      approval_id,
      decision: 'deny',
      reason,
      by: 'policy',
    });
    return { allow: false, reason, by: 'policy' };
  }
  const done = run.beginWait('approval');
  try {
    return await run.waits.approvals.wait(approval_id, run.signal);
  } catch (err) {
    if (err instanceof RunAborted && err.why === 'stop') {
      await run.append({
        type: 'approval_decision',
        approval_id,
        decision: 'deny',
        reason: 'the run was stopped',
        by: 'policy',
      });
    }
    throw err;
  } finally {
    done();
  }
}

/** Runs an approved (or approval-free) call and returns its payload; never throws but for a shutdown. */
export async function executeTool(
  run: RunContext,
  agent: StepAgent,
  tool: AnyTool,
  callId: string,
  args: unknown,
  /** The policy files this call was approved (or allowed by a rule naming them) to write. */
  policyWrites: readonly string[] = [],
): Promise<ToolPayload> {
  const ctx: ToolContext = {
    root: agent.root,
    sessionId: run.session.id,
    agentId: agent.spec.id,
    callId,
    signal: run.signal,
    config: run.config,
    services: run.servicesFor(agent.spec.id),
    emit: (event) => run.append(event),
    progress: (update) =>
      run.session.emitTransient({
        type: 'tool_progress',
        call_id: callId,
        agent_id: agent.spec.id,
        progress: update.progress,
        total: update.total ?? null,
        message: update.message ?? null,
      }),
    allowsPolicyWrite: (name, rel) => name === tool.name && policyWrites.includes(rel),
  };
  try {
    const remote = await remoteUrlOf(ctx, tool.name);
    return await (remote
      ? remote.tools.run(ctx, remote.url, tool.name, args)
      : tool.run(ctx, args));
  } catch (err) {
    const aborted = abortReason(run.signal);
    if (aborted) throw aborted;
    return errorPayload(
      'tool_failed',
      `${tool.name} failed: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}

/** Where a call of `name` runs when the session's project is on an SSH host (else null: here). */
async function remoteUrlOf(
  ctx: ToolContext,
  name: string,
): Promise<{ tools: RemoteTools; url: string } | null> {
  const tools = ctx.services.remote;
  if (!tools || !REMOTE_TOOL_NAMES.has(name)) return null;
  const url = await tools.remoteOf(ctx.sessionId);
  return url ? { tools, url } : null;
}

type AfterEdit = Pick<NonNullable<ToolServices['lsp']>, 'diagnosticsAfterEdit'>;

/** A remote project's language servers run on its host, beside its files: they are asked there. */
async function remoteLspOf(
  run: RunContext,
  remote: RemoteTools | undefined,
): Promise<AfterEdit | null> {
  const url = remote ? await remote.remoteOf(run.session.id) : null;
  if (!remote || !url) return null;
  return {
    diagnosticsAfterEdit: (root, files) =>
      remote.diagnosticsAfterEdit(run.session.id, url, root, files),
  };
}

async function passiveDiagnostics(
  run: RunContext,
  agent: StepAgent,
  callId: string,
  payload: ToolPayload,
): Promise<void> {
  const services = run.servicesFor(agent.spec.id);
  const lsp = (await remoteLspOf(run, services.remote)) ?? services.lsp;
  const files = payload.files;
  if (
    !lsp ||
    payload.kind !== 'diff' ||
    !Array.isArray(files) ||
    !files.length ||
    !run.config.agent.lsp.enabled
  )
    return;
  const note = await lsp.diagnosticsAfterEdit(agent.root, files as string[]).catch(() => null);
  if (note)
    await run.append({
      type: 'diagnostics',
      file: (files as string[]).join(', '),
      text: note.text,
      errors: note.errors,
      warnings: note.warnings,
      call_id: callId,
      agent_id: agent.spec.id,
    });
}

/** Appends a call's result, then (after an edit) the passive diagnostics of the edited files. */
export async function recordResult(
  run: RunContext,
  agent: StepAgent,
  call: { id: string; name: string },
  payload: ToolPayload,
): Promise<void> {
  await run.append({
    type: 'tool_result',
    call_id: call.id,
    agent_id: agent.spec.id,
    name: call.name,
    payload,
  });
  // A read counts as "already in context" only once its result is recorded (seed row 8).
  run.servicesFor(agent.spec.id).readState?.confirm(call.id);
  await passiveDiagnostics(run, agent, call.id, payload);
}

async function runCall(run: RunContext, agent: StepAgent, call: ModelToolCall): Promise<void> {
  let payload: ToolPayload;
  const tool = agent.bound.find((t) => t.name === call.name);
  try {
    const stop = abortReason(run.signal);
    if (stop) throw stop;
    if (!tool) {
      payload = errorPayload(
        'unknown_tool',
        `There is no tool named "${call.name}" this step. Tools available: ${agent.bound.map((t) => t.name).join(', ')}`,
      );
    } else if (call.argsError) {
      payload = errorPayload(
        'invalid_args',
        `Invalid arguments for ${call.name}: ${call.argsError}`,
      );
    } else {
      const parsed = parseToolArgs(tool, call.args);
      if (!parsed.ok) payload = parsed.error;
      else {
        const judged = await judgeCall(run, agent, tool, call.id, parsed.args);
        if (!judged.allow) payload = judged.payload;
        else {
          if (!tool.flags.readOnly) await run.beforeWrite();
          payload = await executeTool(run, agent, tool, call.id, parsed.args, judged.policyWrites);
          await judged.after(payload);
          // A remote project's folders are on its host: a local folder of the same path says nothing.
          const remote = run.servicesFor(agent.spec.id).remote;
          if (payload.kind !== 'error' && !(await remote?.remoteOf(run.session.id)))
            await loadNestedInstructions({
              tool: tool.name,
              args: (parsed.args ?? {}) as Record<string, unknown>,
              root: agent.root,
              agentId: agent.spec.id,
              loaded: run.state.instructionFiles(agent.spec.id),
              append: run.append,
            }).catch(() => {});
        }
      }
    }
  } catch (err) {
    if (!(err instanceof RunAborted)) throw err;
    if (err.why === 'shutdown') throw err;
    payload = STOPPED();
  }
  await recordResult(run, agent, call, payload);
}

/** A call judged: refused (the payload its caller reads), or allowed with what it may write. */
export type Judgement =
  | { allow: false; payload: ToolPayload }
  | {
      allow: true;
      /** The policy files the call was approved (or allowed by a rule naming them) to write. */
      policyWrites: readonly string[];
      /** Runs the PostToolUse hooks once the call's result is known. */
      after(payload: ToolPayload): Promise<void>;
    };

/**
 * Whether a call with parsed `args` may run: its PreToolUse hooks and the user's permission rules
 * first (a deny holds in every mode), then its writes to policy files (an approval in every mode),
 * then the session's permission mode; an approval is asked where one is needed, and refused with
 * the reason where nobody can be asked.
 */
export async function judgeCall(
  run: JudgeScope,
  agent: JudgedAgent,
  tool: AnyTool,
  callId: string,
  args: unknown,
  /**
   * Whether the user already approved this very call (an external agent's own request that named
   * it), asked only where the call would otherwise be an approval: that answers the mode and an
   * ask rule, never a deny rule nor a write to a policy file.
   */
  approved: () => boolean = () => false,
): Promise<Judgement> {
  const rules = await userRules(run, agent);
  const gateInput = rules && {
    ...rules,
    tool: tool.name,
    args: (args ?? {}) as Record<string, unknown>,
    root: agent.root,
    sessionId: run.session.id,
    agentId: agent.spec.id,
    callId,
    mode: run.state.permissionMode(run.config.permission_mode),
    signal: run.signal,
    append: run.append,
  };
  const gate: Gate = gateInput ? await gateCall(gateInput) : { kind: 'mode' };
  if (gate.kind === 'blocked') return { allow: false, payload: gate.payload };
  const targets = policyTargets(tool.name, args, agent.root);
  const unallowed = unallowedTargets(rules?.settings.rules ?? [], tool.name, targets);
  const verdict = await requestApproval(run, agent, tool, callId, args, gate, {
    targets,
    unallowed,
    approved,
  });
  if (!verdict.allow) return { allow: false, payload: deniedPayload(verdict) };
  return {
    allow: true,
    policyWrites: targets,
    after: async (payload) => {
      if (gateInput) await postToolHooks({ ...gateInput, payload });
    },
  };
}

/** The user's rules and hooks for this call's project, read fresh (an edit applies to the next call). */
async function userRules(run: JudgeScope, agent: JudgedAgent) {
  const services = run.servicesFor(agent.spec.id);
  const rules = services.rules;
  if (!rules) return null;
  const settings = await rules.load(
    await policyRootOf(services.remote, run.session.id, agent.root),
    run.session.id,
  );
  return { rules, settings };
}

/** Notification hooks: fire and forget (the user is being asked; nothing waits on them). */
function notifyHooks(run: JudgeScope, agent: JudgedAgent, message: string): void {
  void userRules(run, agent)
    .then((r) =>
      r
        ? runEventHooks({
            event: 'Notification',
            hooks: r.settings.hooks,
            root: agent.root,
            sessionId: run.session.id,
            agentId: agent.spec.id,
            fields: { message },
            env: r.rules.env,
            confine: r.rules.confineHook,
            signal: run.signal,
            append: run.append,
          })
        : undefined,
    )
    .catch(() => {});
}

/**
 * Groups: a run of consecutive read-only calls, or one call that may write. Read-only is per call
 * (a read of shell_session_tool is a read); a call whose arguments do not parse is not.
 */
export function groupCalls(
  calls: readonly ModelToolCall[],
  bound: readonly AnyTool[],
): ModelToolCall[][] {
  const readOnly = (c: ModelToolCall) => {
    const tool = bound.find((t) => t.name === c.name);
    if (!tool || c.argsError) return false;
    const parsed = parseToolArgs(tool, c.args);
    return parsed.ok && classifyCall(tool, parsed.args).readOnly;
  };
  const groups: ModelToolCall[][] = [];
  for (const c of calls) {
    const last = groups[groups.length - 1];
    if (readOnly(c) && last && last.every(readOnly)) last.push(c);
    else groups.push([c]);
  }
  return groups;
}

export async function dispatchCalls(
  run: RunContext,
  agent: StepAgent,
  calls: readonly ModelToolCall[],
): Promise<void> {
  for (const group of groupCalls(calls, agent.bound)) {
    if (group.length === 1) await runCall(run, agent, group[0]!);
    else {
      const settled = await Promise.allSettled(group.map((c) => runCall(run, agent, c)));
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }
}

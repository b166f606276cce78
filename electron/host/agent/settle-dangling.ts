import type { SessionEventOf } from '../../../shared/protocol/events';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import type { Session } from '../sessions/session';
import { parseToolArgs } from '../tools/parse-args';
import { PLAN_TOOL_NAME } from './constants';
import { INTERRUPTED_MESSAGE } from './context-builder';
import { deniedPayload, executeTool, recordResult, type StepAgent } from './dispatch';
import { planResult } from './plan-tool';
import type { ApprovalVerdict, PlanVerdict, RunContext } from './run-context';
import { findApproval, findPlan, unresolvedCalls } from './session-state';
import { RunAborted } from './stop-reason';

// Tool calls left without a result by a run that ended abnormally (a host restart, a crash). A
// call waiting for an approval or a plan decision stays pending across the restart; everything
// else is marked interrupted. The next run of the session settles the pending ones first: it waits
// for the decision (or uses the one that arrived), runs an approved call, and goes on.

const QUESTION_INTERRUPTED =
  'The run stopped before the user answered (the app restarted). The question stays open: a later answer arrives as a new message.';

function interrupted(call: SessionEventOf<'tool_call'>): ToolPayload {
  return call.name === 'ask_user_question'
    ? { kind: 'question_answer', status: 'interrupted', message: QUESTION_INTERRUPTED }
    : errorPayload('interrupted', INTERRUPTED_MESSAGE);
}

function waitsOnUser(session: Session, call: SessionEventOf<'tool_call'>): boolean {
  const events = session.events();
  const approval = events.find((e) => e.type === 'approval_request' && e.call_id === call.call_id);
  if (approval?.type === 'approval_request')
    return !findApproval(events, approval.approval_id).decision;
  const plan = events.find((e) => e.type === 'plan' && e.call_id === call.call_id);
  if (plan?.type === 'plan') return !findPlan(events, plan.plan_id).decision;
  return false;
}

/** On opening a session with no run: results for dead calls, pending approvals and plans kept. */
export async function repairOnOpen(session: Session): Promise<void> {
  for (const call of unresolvedCalls(session.events())) {
    if (call.agent_id === 'root' && waitsOnUser(session, call)) continue;
    await session.append({
      type: 'tool_result',
      call_id: call.call_id,
      agent_id: call.agent_id,
      name: call.name,
      payload: interrupted(call),
    });
  }
}

async function approvalVerdict(run: RunContext, approvalId: string): Promise<ApprovalVerdict> {
  const decided = findApproval(run.session.events(), approvalId).decision;
  if (decided)
    return decided.decision === 'allow'
      ? { allow: true }
      : { allow: false, reason: decided.reason ?? '', by: decided.by };
  const done = run.beginWait('approval');
  try {
    return await run.waits.approvals.wait(approvalId, run.signal);
  } catch (err) {
    if (err instanceof RunAborted && err.why === 'stop') {
      await run.append({
        type: 'approval_decision',
        approval_id: approvalId,
        decision: 'deny',
        reason: 'the run was stopped',
        by: 'policy',
      });
      return { allow: false, reason: 'the run was stopped', by: 'policy' };
    }
    throw err;
  } finally {
    done();
  }
}

async function planVerdict(run: RunContext, planId: string): Promise<PlanVerdict> {
  const decided = findPlan(run.session.events(), planId).decision;
  if (decided) return { decision: decided.decision, feedback: decided.feedback };
  const done = run.beginWait('plan');
  try {
    return await run.waits.plans.wait(planId, run.signal);
  } finally {
    done();
  }
}

async function settleOne(
  run: RunContext,
  agent: StepAgent,
  call: SessionEventOf<'tool_call'>,
): Promise<ToolPayload> {
  const events = run.session.events();
  const approval = events.find(
    (e): e is SessionEventOf<'approval_request'> =>
      e.type === 'approval_request' && e.call_id === call.call_id,
  );
  if (approval) {
    const verdict = await approvalVerdict(run, approval.approval_id);
    if (!verdict.allow) return deniedPayload(verdict);
    const tool = agent.bound.find((t) => t.name === call.name);
    if (!tool)
      return errorPayload(
        'unknown_tool',
        `${call.name} is not available any more (the mode or the tool set changed)`,
      );
    const parsed = parseToolArgs(tool, call.args);
    // The user approved the policy files the request named, and no other (a link planted since
    // leads the write elsewhere: the tool refuses it).
    return parsed.ok
      ? executeTool(run, agent, tool, call.call_id, parsed.args, approval.policy_files ?? [])
      : parsed.error;
  }
  const plan =
    call.name === PLAN_TOOL_NAME
      ? events.find(
          (e): e is SessionEventOf<'plan'> => e.type === 'plan' && e.call_id === call.call_id,
        )
      : undefined;
  if (plan) {
    const verdict = await planVerdict(run, plan.plan_id);
    return planResult(plan.plan_id, verdict, run.state.permissionMode(run.config.permission_mode));
  }
  return interrupted(call);
}

/** At the start of a root run: every dangling call gets its result, waiting on the user if need be. */
export async function settleDangling(run: RunContext, agent: StepAgent): Promise<void> {
  for (const call of unresolvedCalls(run.session.events())) {
    let payload: ToolPayload;
    try {
      payload = call.agent_id === 'root' ? await settleOne(run, agent, call) : interrupted(call);
    } catch (err) {
      if (!(err instanceof RunAborted) || err.why === 'shutdown') throw err;
      payload = errorPayload('stopped', 'The user stopped the run before this call finished.');
    }
    await recordResult(
      run,
      { ...agent, spec: { ...agent.spec, id: call.agent_id } },
      { id: call.call_id, name: call.name },
      payload,
    );
  }
}

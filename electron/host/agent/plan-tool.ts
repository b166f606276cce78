import { z } from 'zod';
import type { ToolPayload } from '../../../shared/tools/payload';
import { defineTool, type AnyTool } from '../tools/tool';
import { PLAN_TOOL_NAME } from './constants';
import { newPlanId } from './ids';
import type { PlanVerdict, RunContext } from './run-context';

// exit_plan_mode: in plan mode, the model proposes its plan; the user approves it (the session
// switches to act mode and the model carries it out) or rejects it with feedback (the model
// revises). Bound only to the root agent and only in plan mode (bind-tools.ts).

const PLAN_MAX_CHARS = 50_000;

const parameters = z.strictObject({
  plan: z
    .string()
    .trim()
    .min(1, 'the plan is empty')
    .max(PLAN_MAX_CHARS)
    .describe(
      'The plan, step by step (markdown): files to change, commands to run, how to check the result',
    ),
});

/** The result the model reads for a decided plan (also used when a restarted host resumes). */
export function planResult(planId: string, verdict: PlanVerdict, modeAfter: string): ToolPayload {
  switch (verdict.decision) {
    case 'approve':
      return {
        kind: 'plan_decision',
        plan_id: planId,
        decision: 'approve',
        mode: modeAfter,
        message: `The user approved the plan. The session is now in act mode ("${modeAfter}"): carry the plan out.${verdict.feedback ? ` Their note: ${verdict.feedback}` : ''}`,
      };
    case 'reject':
      return {
        kind: 'plan_decision',
        plan_id: planId,
        decision: 'reject',
        ...(verdict.feedback ? { feedback: verdict.feedback } : {}),
        message: `The user rejected the plan${verdict.feedback ? `: ${verdict.feedback}` : '.'} You are still in plan mode: revise the plan and propose it again.`,
      };
    case 'superseded':
      return {
        kind: 'plan_decision',
        plan_id: planId,
        decision: 'superseded',
        message:
          'The user sent a new message instead of deciding on the plan: address that message. You are still in plan mode.',
      };
  }
}

export function createPlanTool(run: RunContext): AnyTool {
  return defineTool({
    name: PLAN_TOOL_NAME,
    description:
      'Plan mode only: propose your plan for the user to approve. On approval the session switches to act mode and you ' +
      'carry the plan out; on rejection you get their feedback and revise. Call it once your investigation is done.',
    parameters,
    flags: { readOnly: true, rootOnly: true, approval: 'none' },
    async run(ctx, args): Promise<ToolPayload> {
      const planId = newPlanId();
      await ctx.emit({ type: 'plan', plan_id: planId, text: args.plan, call_id: ctx.callId });
      if (run.headless) {
        return {
          kind: 'plan_decision',
          plan_id: planId,
          decision: 'recorded',
          message:
            'This headless run has nobody to approve the plan: it is recorded. End your turn with the plan as your answer.',
        };
      }
      const done = run.beginWait('plan');
      let verdict: PlanVerdict;
      try {
        verdict = await run.waits.plans.wait(planId, ctx.signal);
      } finally {
        done();
      }
      return planResult(planId, verdict, run.state.permissionMode(run.config.permission_mode));
    },
  }) as AnyTool;
}

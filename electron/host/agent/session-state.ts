import type { SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import type { PermissionMode } from '../config/schema';

// Projections of a session's log that the runtime decides by: the permission mode, what is still
// waiting for the user, which calls have no result. Everything is recomputed from the log, which
// is what lets a restarted host pick a session up where it stood.

export function currentMode(
  events: readonly SessionEvent[],
  fallback: PermissionMode,
): PermissionMode {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'mode_change') return e.mode;
  }
  return fallback;
}

/** The session's own model choice (its latest model_change), if it made one. */
export function sessionModel(
  events: readonly SessionEvent[],
): SessionEventOf<'model_change'> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'model_change') return e;
  }
  return undefined;
}

/** The last mode before plan mode was entered: where an approved plan switches to. */
export function modeBeforePlan(
  events: readonly SessionEvent[],
  fallback: PermissionMode,
): PermissionMode {
  let before: PermissionMode = fallback === 'plan' ? 'ask' : fallback;
  let prev: PermissionMode = fallback;
  for (const e of events) {
    if (e.type !== 'mode_change') continue;
    if (e.mode === 'plan' && prev !== 'plan') before = prev;
    prev = e.mode;
  }
  return before;
}

export function pendingApprovals(
  events: readonly SessionEvent[],
): SessionEventOf<'approval_request'>[] {
  const decided = new Set(
    events.filter((e) => e.type === 'approval_decision').map((e) => e.approval_id),
  );
  return events.filter(
    (e): e is SessionEventOf<'approval_request'> =>
      e.type === 'approval_request' && !decided.has(e.approval_id),
  );
}

export function findApproval(events: readonly SessionEvent[], approvalId: string) {
  const request = events.find(
    (e): e is SessionEventOf<'approval_request'> =>
      e.type === 'approval_request' && e.approval_id === approvalId,
  );
  const decision = events.find(
    (e): e is SessionEventOf<'approval_decision'> =>
      e.type === 'approval_decision' && e.approval_id === approvalId,
  );
  return { request, decision };
}

export function findQuestion(events: readonly SessionEvent[], questionId: string) {
  const question = events.find(
    (e): e is SessionEventOf<'question'> => e.type === 'question' && e.question_id === questionId,
  );
  const answer = events.find(
    (e): e is SessionEventOf<'question_answer'> =>
      e.type === 'question_answer' && e.question_id === questionId,
  );
  return { question, answer };
}

/** Questions nobody answered yet: still answerable, whether expired, superseded or interrupted. */
export function openQuestions(events: readonly SessionEvent[]): SessionEventOf<'question'>[] {
  const answered = new Set(
    events.filter((e) => e.type === 'question_answer').map((e) => e.question_id),
  );
  return events.filter(
    (e): e is SessionEventOf<'question'> => e.type === 'question' && !answered.has(e.question_id),
  );
}

/** MCP elicitations nobody answered yet (their server still waits, unless the host restarted). */
export function openElicitations(events: readonly SessionEvent[]): SessionEventOf<'elicitation'>[] {
  const answered = new Set(
    events.filter((e) => e.type === 'elicitation_answer').map((e) => e.elicitation_id),
  );
  return events.filter(
    (e): e is SessionEventOf<'elicitation'> =>
      e.type === 'elicitation' && !answered.has(e.elicitation_id),
  );
}

export function findElicitation(events: readonly SessionEvent[], elicitationId: string) {
  const elicitation = events.find(
    (e): e is SessionEventOf<'elicitation'> =>
      e.type === 'elicitation' && e.elicitation_id === elicitationId,
  );
  const answer = events.find(
    (e): e is SessionEventOf<'elicitation_answer'> =>
      e.type === 'elicitation_answer' && e.elicitation_id === elicitationId,
  );
  return { elicitation, answer };
}

export function findPlan(events: readonly SessionEvent[], planId: string) {
  const plan = events.find(
    (e): e is SessionEventOf<'plan'> => e.type === 'plan' && e.plan_id === planId,
  );
  const decision = events.find(
    (e): e is SessionEventOf<'plan_decision'> => e.type === 'plan_decision' && e.plan_id === planId,
  );
  return { plan, decision };
}

export function pendingPlans(events: readonly SessionEvent[]): SessionEventOf<'plan'>[] {
  const decided = new Set(events.filter((e) => e.type === 'plan_decision').map((e) => e.plan_id));
  return events.filter(
    (e): e is SessionEventOf<'plan'> => e.type === 'plan' && !decided.has(e.plan_id),
  );
}

/** Tool calls with no result yet, oldest first (any agent). */
export function unresolvedCalls(events: readonly SessionEvent[]): SessionEventOf<'tool_call'>[] {
  const done = new Set(events.filter((e) => e.type === 'tool_result').map((e) => e.call_id));
  return events.filter(
    (e): e is SessionEventOf<'tool_call'> => e.type === 'tool_call' && !done.has(e.call_id),
  );
}

/** The latest full tree of a panel, from its newest panel event. */
export function latestPanel(
  events: readonly SessionEvent[],
  uiId: string,
): SessionEventOf<'panel'> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'panel' && e.ui_id === uiId) return e;
  }
  return undefined;
}

export function lastRunState(
  events: readonly SessionEvent[],
): SessionEventOf<'run_state'> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'run_state') return e;
  }
  return undefined;
}

import type { Client } from '../transport/transport';
import { userError } from '../lib/user-error';
import type { SessionEventOf } from '../../../shared/protocol/events';
import type { ElicitContent } from '../../../shared/mcp/elicitation-form';

export type QuestionAnswer = SessionEventOf<'question_answer'>['answer'];

// The decisions a person puts back into a run: answer a question, decide an approval, decide a
// plan. One place maps them to protocol commands, so cards stay free of transport details.

export async function answerQuestion(
  client: Client,
  sessionId: string,
  questionId: string,
  answer: QuestionAnswer,
): Promise<void> {
  await client.invoke('agent.answerQuestion', {
    id: sessionId,
    question_id: questionId,
    answers: answer.answers,
    ...(answer.notes ? { notes: answer.notes } : {}),
  });
}

export async function answerElicitation(
  client: Client,
  sessionId: string,
  elicitationId: string,
  action: 'accept' | 'decline' | 'cancel',
  content?: ElicitContent,
): Promise<void> {
  await client.invoke('agent.answerElicitation', {
    id: sessionId,
    elicitation_id: elicitationId,
    action,
    ...(content ? { content } : {}),
  });
}

export async function decideApproval(
  client: Client,
  sessionId: string,
  approvalId: string,
  decision: 'allow' | 'deny',
  reason?: string,
  always?: 'session' | 'project' | 'user',
  /** An external agent's option, by id (its kind says allow or deny). */
  option?: string,
): Promise<void> {
  await client.invoke('agent.decideApproval', {
    id: sessionId,
    approval_id: approvalId,
    decision,
    ...(reason ? { reason } : {}),
    ...(always ? { always } : {}),
    ...(option ? { option } : {}),
  });
}

export async function decidePlan(
  client: Client,
  sessionId: string,
  planId: string,
  decision: 'approve' | 'reject',
  feedback?: string,
): Promise<void> {
  await client.invoke('agent.decidePlan', {
    id: sessionId,
    plan_id: planId,
    decision,
    ...(feedback ? { feedback } : {}),
  });
}

/** A failed command as one readable line for the card that issued it (see lib/user-error). */
export function errorText(err: unknown): string {
  return userError(err);
}

import type { Client } from '../transport/transport';
import type { SessionEventOf } from '../../../shared/protocol/events';

export type QuestionAnswer = SessionEventOf<'question_answer'>['answer'];

// The decisions a person puts back into a run: answer a question, decide an approval, decide a
// plan. One place maps them to protocol commands, so cards stay free of transport details.

export function answerQuestion(
  client: Client,
  sessionId: string,
  questionId: string,
  answer: QuestionAnswer,
): Promise<unknown> {
  return client.transport.invoke('agent.answerQuestion', {
    session_id: sessionId,
    question_id: questionId,
    ...answer,
  });
}

export function decideApproval(
  client: Client,
  sessionId: string,
  approvalId: string,
  decision: 'allow' | 'deny',
  reason?: string,
): Promise<unknown> {
  return client.transport.invoke('agent.decideApproval', {
    session_id: sessionId,
    approval_id: approvalId,
    decision,
    reason,
  });
}

export function decidePlan(
  client: Client,
  sessionId: string,
  planId: string,
  decision: 'approve' | 'reject',
  feedback?: string,
): Promise<unknown> {
  return client.transport.invoke('agent.decidePlan', {
    session_id: sessionId,
    plan_id: planId,
    decision,
    feedback,
  });
}

/** A failed command as one readable line for the card that issued it. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

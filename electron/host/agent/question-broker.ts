import type { Session } from '../sessions/session';
import { newQuestionId } from './ids';
import type { QuestionBroker, QuestionOutcome } from './interaction';
import type { QuestionVerdict } from './run-context';
import type { Waiters } from './waiters';

// ask_user_question's side of the session: appends the question, then waits for the answer, the
// expiry (timeout_seconds) or a superseding user message. An expired question is still
// answerable: its answer then arrives late, as a new message (agent-service.ts).

class Expired extends Error {}

export function createQuestionBroker(
  session: Session,
  waiters: Waiters<QuestionVerdict>,
  beginWait: (reason: string) => () => void,
): QuestionBroker {
  return {
    async ask(input, signal) {
      const questionId = newQuestionId();
      await session.append({
        type: 'question',
        question_id: questionId,
        call_id: input.callId,
        questions: input.questions,
        ...(input.timeoutSeconds !== undefined ? { timeout_seconds: input.timeoutSeconds } : {}),
        ...(input.notesPlaceholder !== undefined
          ? { notes_placeholder: input.notesPlaceholder }
          : {}),
      });
      const expiry = new AbortController();
      const timer =
        input.timeoutSeconds !== undefined
          ? setTimeout(() => expiry.abort(new Expired()), input.timeoutSeconds * 1000)
          : undefined;
      const done = beginWait('question');
      let outcome: QuestionOutcome;
      try {
        outcome = await waiters.wait(questionId, AbortSignal.any([signal, expiry.signal]));
      } catch (err) {
        if (!(err instanceof Expired)) throw err;
        await session.append({ type: 'question_expired', question_id: questionId });
        outcome = { status: 'expired' };
      } finally {
        clearTimeout(timer);
        done();
      }
      return { questionId, outcome };
    },
  };
}

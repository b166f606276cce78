import type { Session } from '../sessions/session';
import type { ElicitationAnswer, ElicitationAsker } from '../mcp/elicitation';
import { newElicitationId } from './ids';
import { openElicitations } from './session-state';
import type { Waiters } from './waiters';

// An MCP server's elicitation as the session shows it: a card like ask_user_question's (the
// `elicitation` event), answered from the desktop or a phone (AgentDecisions.answerElicitation,
// which checks an accepted form against its schema and logs the answer). A wait that ends without
// an answer (Stop, the server withdrew its request, the host shuts down) is logged here as a cancel
// with its reason, so the card closes and the server hears `cancel`.

export function createElicitationBroker(
  session: Session,
  waiters: Waiters<ElicitationAnswer>,
  beginWait: (reason: string) => () => void,
): ElicitationAsker {
  return {
    async ask(request, signal) {
      const id = newElicitationId();
      await session.append({
        type: 'elicitation',
        elicitation_id: id,
        call_id: request.callId,
        server: request.server,
        ...(request.asker ? { asker: request.asker } : {}),
        message: request.message,
        mode: request.mode,
        ...(request.mode === 'form' ? { form: request.form } : { url: request.url }),
      });
      const done = beginWait('elicitation');
      try {
        return await waiters.wait(id, signal);
      } catch (err) {
        const reason = err instanceof Error ? err.message : 'the request ended';
        await session
          .append({ type: 'elicitation_answer', elicitation_id: id, action: 'cancel', reason })
          .catch(() => {});
        return { action: 'cancel' };
      } finally {
        done();
      }
    },
  };
}

/**
 * Elicitations a previous process left open: their server's request died with it, so each is
 * closed as cancelled and its card stops asking.
 */
export async function closeOrphanedElicitations(session: Session): Promise<void> {
  for (const e of openElicitations(session.events()))
    await session.append({
      type: 'elicitation_answer',
      elicitation_id: e.elicitation_id,
      action: 'cancel',
      reason: 'the app restarted; the server no longer waits for this answer',
    });
}

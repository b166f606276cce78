import type { SessionRunner } from './session-runner';
import { newMessageId } from './session-runner';

/**
 * The runner used when no agent runtime is composed (tests of the session layer, a host without
 * a model): it records the message and says plainly that nothing will answer it.
 */
export function offlineRunner(): SessionRunner {
  return {
    async send(session, text) {
      const message_id = newMessageId();
      await session.append({ type: 'user_message', text, message_id });
      await session.append({
        type: 'error',
        code: 'no_model',
        message: 'No model is set: configure one in Settings.',
      });
      return { message_id };
    },
    async stop(session) {
      await session.append({ type: 'run_state', state: 'stopped', reason: 'stopped by the user' });
    },
    async setMode(session, mode) {
      await session.append({ type: 'mode_change', mode });
    },
  };
}

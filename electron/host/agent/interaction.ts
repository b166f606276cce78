import type { z } from 'zod';
import type { questionAnswerSchema, questionSchema } from '../../../shared/protocol/events';

// What the interactive tools get from the running session, through ToolServices: a way to put
// questions to the user and the panels presented so far. The agent runtime provides both per
// session; `mewbo tool` and `mewbo mcp` provide neither (no one to ask there).

export type QuestionInput = z.output<typeof questionSchema>;
export type QuestionAnswer = z.output<typeof questionAnswerSchema>;

export type QuestionOutcome =
  { status: 'answered'; answer: QuestionAnswer } | { status: 'expired' } | { status: 'superseded' };

export interface QuestionBroker {
  /**
   * Appends the question event and waits for its answer, its expiry (timeoutSeconds) or a new user
   * message; rejects when the run stops.
   */
  ask(
    input: {
      callId: string;
      questions: QuestionInput[];
      timeoutSeconds?: number;
      notesPlaceholder?: string;
    },
    signal: AbortSignal,
  ): Promise<{ questionId: string; outcome: QuestionOutcome }>;
}

export interface PanelLookup {
  /** The newest full tree of a panel presented earlier in this session. */
  latest(uiId: string): { root: unknown[]; summary: string } | undefined;
}

import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { QUESTION_MAX_TIMEOUT_S, QUESTIONS_MAX } from '../agent/constants';
import { answersForModel } from '../agent/question-format';
import { defineTool } from './tool';

// ask_user_question (seed): puts a decision back to the user. Blocks until answered by default;
// timeout_seconds turns expiry into a readable result while the question stays answerable (a late
// answer arrives as a new message). A new user message supersedes it. Root agent only, only when
// the client can ask (capability ask_user), never in headless runs.

const HEADER_MAX_CHARS = 30;

const option = z.strictObject({
  label: z.string().trim().min(1).max(200),
  description: z.string().max(1_000).default(''),
});

const question = z.strictObject({
  header: z
    .string()
    .trim()
    .min(1)
    .max(HEADER_MAX_CHARS)
    .describe(
      `Short label shown as a chip (at most ${HEADER_MAX_CHARS} characters), e.g. "Database"`,
    ),
  question: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .describe('The full question, ending with a question mark'),
  options: z
    .array(option)
    .default([])
    .refine(
      (o) => o.length === 0 || (o.length >= 2 && o.length <= 4),
      'give no options (free text) or 2 to 4',
    )
    .refine((o) => new Set(o.map((x) => x.label)).size === o.length, 'option labels must differ')
    .describe('[] for a free-text question, or 2-4 choices {label, description}'),
  multi_select: z.boolean().default(false).describe('Allow selecting several options'),
});

const parameters = z.strictObject({
  questions: z
    .array(question)
    .min(1)
    .max(QUESTIONS_MAX)
    .describe(`1 to ${QUESTIONS_MAX} questions asked together`),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(QUESTION_MAX_TIMEOUT_S)
    .optional()
    .describe(
      `Stop waiting after this many seconds (at most ${QUESTION_MAX_TIMEOUT_S}); omit to wait until answered`,
    ),
  notes_placeholder: z
    .string()
    .max(200)
    .optional()
    .describe('Placeholder of the optional notes field for the group'),
});

export const askUserQuestionTool = defineTool({
  name: 'ask_user_question',
  description:
    'Ask the user to decide instead of guessing. Each question is answered with selected option indexes or free text ' +
    '(free text is accepted even when options are offered), plus optional notes for the group. The call blocks until ' +
    'the user answers; with timeout_seconds, expiry returns a readable result and the question stays open (a later ' +
    'answer arrives as a new message). If the user sends a new message instead, the question is superseded: address the message.',
  parameters,
  flags: {
    readOnly: true,
    rootOnly: true,
    needsCapability: 'ask_user',
    needsInteractive: true,
    approval: 'none',
  },
  async run(ctx, args): Promise<ToolPayload> {
    const broker = ctx.services.questions;
    if (!broker)
      return errorPayload(
        'not_interactive',
        'ask_user_question needs a client that can ask the user, and none is attached to this run',
      );
    const { questionId, outcome } = await broker.ask(
      {
        callId: ctx.callId ?? '',
        questions: args.questions,
        timeoutSeconds: args.timeout_seconds,
        notesPlaceholder: args.notes_placeholder,
      },
      ctx.signal,
    );
    switch (outcome.status) {
      case 'answered':
        return {
          kind: 'question_answer',
          question_id: questionId,
          status: 'answered',
          answers: answersForModel(args.questions, outcome.answer),
          ...(outcome.answer.notes?.trim() ? { notes: outcome.answer.notes.trim() } : {}),
        };
      case 'expired':
        return {
          kind: 'question_answer',
          question_id: questionId,
          status: 'expired',
          message: `No answer within ${args.timeout_seconds} s. The question stays open: if the user answers later, the answer arrives as a new message. Go on with what does not depend on it, or end your turn.`,
        };
      case 'superseded':
        return {
          kind: 'question_answer',
          question_id: questionId,
          status: 'superseded',
          message:
            'The user sent a new message instead of answering: address that message. The question stays open; a later answer arrives as a new message.',
        };
    }
  },
});

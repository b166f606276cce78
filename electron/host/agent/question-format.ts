import type { z } from 'zod';
import type { questionAnswerSchema, questionSchema } from '../../../shared/protocol/events';

// Checking an answer against its questions, and the text the model reads for it (in place as a
// tool result, or late as a new message).

type Question = z.output<typeof questionSchema>;
type Answer = z.output<typeof questionAnswerSchema>;

/** Null when the answer fits the questions; otherwise what is wrong, naming the question. */
export function checkAnswer(questions: readonly Question[], answer: Answer): string | null {
  if (answer.answers.length !== questions.length) {
    return `expected ${questions.length} answer${questions.length === 1 ? '' : 's'} (one per question), got ${answer.answers.length}`;
  }
  for (const [i, a] of answer.answers.entries()) {
    const q = questions[i]!;
    const name = `answer ${i + 1} ("${q.header}")`;
    if ('selected' in a) {
      if (!q.options.length) return `${name}: this question has no options; answer with text`;
      if (!a.selected.length) return `${name}: select at least one option, or answer with text`;
      if (!q.multi_select && a.selected.length > 1)
        return `${name}: only one option may be selected`;
      if (new Set(a.selected).size !== a.selected.length)
        return `${name}: an option is selected twice`;
      const bad = a.selected.find((n) => n >= q.options.length);
      if (bad !== undefined)
        return `${name}: option index ${bad} is out of range (0-${q.options.length - 1})`;
    } else if (!a.text.trim()) return `${name}: the text is empty`;
  }
  return null;
}

/** Each question with what was chosen, as labels (indexes mean nothing to a reader). */
export type AnswerForModel =
  | { header: string; question: string; selected: string[] }
  | { header: string; question: string; text: string };

export function answersForModel(questions: readonly Question[], answer: Answer): AnswerForModel[] {
  return answer.answers.map((a, i): AnswerForModel => {
    const q = questions[i]!;
    return 'selected' in a
      ? {
          header: q.header,
          question: q.question,
          selected: a.selected.map((n) => q.options[n]?.label ?? `#${n}`),
        }
      : { header: q.header, question: q.question, text: a.text };
  });
}

export function formatAnswerText(questions: readonly Question[], answer: Answer): string {
  const lines = answersForModel(questions, answer).map((a) =>
    'selected' in a
      ? `${a.header}: ${a.question}\n-> ${a.selected.join(', ')}`
      : `${a.header}: ${a.question}\n-> "${a.text}"`,
  );
  if (answer.notes?.trim()) lines.push(`Notes: ${answer.notes.trim()}`);
  return lines.join('\n');
}

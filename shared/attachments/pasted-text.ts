import { z } from 'zod';
import { groupDigits } from '../group-digits';

// A long paste is not typed text: the composer keeps it as a chip ("Pasted text, 1,204 lines")
// that can be opened and removed, and the model reads it after the message, marked as pasted.
// The message box stays light (a megabyte in a textarea makes every keystroke slow) and the
// conversation shows one line instead of a wall. The limits are shared by the composer (which
// refuses in words before sending) and sessions.send (which refuses anything else).

/** A paste at least this long becomes a chip (a screenful of code stays inline and editable). */
export const PASTE_CHIP_MIN_CHARS = 3_000;
/** ...or one with at least this many lines. */
export const PASTE_CHIP_MIN_LINES = 60;
/** Pasted texts on one message. */
export const PASTES_PER_MESSAGE = 8;
/**
 * All pasted text of one message together, in characters: 2 million (a 1 MB log or dump and
 * some room). It travels in one WebSocket frame (the web host's frame limit is sized for it) and
 * is kept in the session log; a model with a smaller context refuses it with its own clear error.
 */
export const PASTED_MAX_TOTAL_CHARS = 2_000_000;

export const pastedTextSchema = z.object({
  /** What the chip says: "Pasted text, N lines". */
  name: z.string().min(1).max(200),
  text: z.string().min(1),
});
export type PastedText = z.infer<typeof pastedTextSchema>;

export const pastedTextsSchema = z
  .array(pastedTextSchema)
  .max(PASTES_PER_MESSAGE)
  .refine(
    (all) => all.reduce((n, p) => n + p.text.length, 0) <= PASTED_MAX_TOTAL_CHARS,
    `the pasted text adds up to more than ${groupDigits(PASTED_MAX_TOTAL_CHARS)} characters`,
  );

export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Whether a paste becomes a chip instead of text in the box. */
export function isLongPaste(text: string): boolean {
  return text.length >= PASTE_CHIP_MIN_CHARS || lineCount(text) >= PASTE_CHIP_MIN_LINES;
}

export function pasteName(text: string): string {
  const lines = lineCount(text);
  return `Pasted text, ${groupDigits(lines)} ${lines === 1 ? 'line' : 'lines'}`;
}

/** The message as the model reads it: the user's words, then each pasted text, whole. */
export function withPastedTexts(text: string, pastes: readonly PastedText[] | undefined): string {
  if (!pastes?.length) return text;
  const blocks = pastes.map(
    (p, i) =>
      `<pasted_text index="${i + 1}" lines="${lineCount(p.text)}">\n${p.text}${p.text.endsWith('\n') ? '' : '\n'}</pasted_text>`,
  );
  return `${text}${text ? '\n\n' : ''}The user pasted this text with the message:\n${blocks.join('\n')}`;
}

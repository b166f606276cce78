import { describe, expect, it } from 'vitest';
import {
  PASTED_MAX_TOTAL_CHARS,
  PASTE_CHIP_MIN_CHARS,
  PASTE_CHIP_MIN_LINES,
  isLongPaste,
  lineCount,
  pasteName,
  pastedTextsSchema,
  withPastedTexts,
} from '../../../shared/attachments/pasted-text';

describe('pasted text', () => {
  it('counts lines as an editor shows them (a final newline ends a line, it starts none)', () => {
    expect(lineCount('one')).toBe(1);
    expect(lineCount('one\ntwo')).toBe(2);
    expect(lineCount('one\ntwo\n')).toBe(2);
    expect(pasteName('a\n')).toBe('Pasted text, 1 line');
    expect(pasteName('x\n'.repeat(1204))).toBe('Pasted text, 1,204 lines');
  });

  it('becomes a chip from either threshold, and stays text below both', () => {
    expect(isLongPaste('x'.repeat(PASTE_CHIP_MIN_CHARS - 1))).toBe(false);
    expect(isLongPaste('x'.repeat(PASTE_CHIP_MIN_CHARS))).toBe(true);
    expect(isLongPaste('x\n'.repeat(PASTE_CHIP_MIN_LINES - 1))).toBe(false);
    expect(isLongPaste('x\n'.repeat(PASTE_CHIP_MIN_LINES))).toBe(true);
  });

  it('reaches the model whole, after the typed words, and a message may be the paste alone', () => {
    const paste = { name: 'Pasted text, 2 lines', text: 'a\nb' };
    expect(withPastedTexts('Look', undefined)).toBe('Look');
    const both = withPastedTexts('Look', [paste, { ...paste, text: 'c\n' }]);
    expect(both).toBe(
      'Look\n\nThe user pasted this text with the message:\n' +
        '<pasted_text index="1" lines="2">\na\nb\n</pasted_text>\n' +
        '<pasted_text index="2" lines="1">\nc\n</pasted_text>',
    );
    expect(withPastedTexts('', [paste]).startsWith('The user pasted')).toBe(true);
  });

  it('refuses more than the total limit across a message, and accepts exactly the limit', () => {
    const half = 'x'.repeat(PASTED_MAX_TOTAL_CHARS / 2);
    const ok = [
      { name: 'a', text: half },
      { name: 'b', text: half },
    ];
    expect(pastedTextsSchema.safeParse(ok).success).toBe(true);
    const over = [...ok, { name: 'c', text: 'x' }];
    const r = pastedTextsSchema.safeParse(over);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/more than 2,000,000 characters/);
  });
});

import { describe, expect, it } from 'vitest';
import { titleFromMessage } from '../../../electron/host/sessions/session-title';

describe('a title from the first message', () => {
  it('is its first non-empty line without markdown marks', () => {
    expect(titleFromMessage('\n\n## Make the **port** configurable\nand run the tests')).toBe(
      'Make the port configurable',
    );
    expect(titleFromMessage('- fix `npm test`')).toBe('fix npm test');
  });

  it('cuts a long line at a word and says it was cut', () => {
    const t = titleFromMessage(
      'Please refactor the session manager so that every session has exactly one owner and closes when idle',
    )!;
    expect(t.length).toBeLessThanOrEqual(61);
    expect(t.endsWith('…')).toBe(true);
    expect(t).toMatch(/^Please refactor the session manager so that every session\b/);
  });

  it('is nothing for a message of only blanks and marks', () => {
    expect(titleFromMessage('  \n```\n')).toBeNull();
  });
});

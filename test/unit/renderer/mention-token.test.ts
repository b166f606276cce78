import { describe, expect, it } from 'vitest';
import { activeMention, insertMention } from '../../../renderer/src/lib/mention-token';
import { mentionedPaths } from '../../../electron/host/sessions/file-mentions';

// The composer writes `@path` and the host reads it back: both sides must agree on the syntax.

describe('mention tokens', () => {
  it('finds the @ being typed at the caret, not an address or an earlier word', () => {
    expect(activeMention('look at @src/se', 15)).toEqual({ start: 8, end: 15, query: 'src/se' });
    expect(activeMention('@', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(activeMention('mail me@example.com', 19)).toBeNull();
    expect(activeMention('@src/a.ts and more', 18)).toBeNull();
    // The caret inside a token: the whole token is replaced on a pick.
    expect(activeMention('@src/ser and', 4)).toEqual({ start: 0, end: 8, query: 'src' });
  });

  it('a pick replaces the token, adds one space and puts the caret after it', () => {
    const text = 'see @ser now';
    const token = activeMention(text, 8)!;
    expect(insertMention(text, token, 'src/server.ts')).toEqual({
      text: 'see @src/server.ts now',
      caret: 19,
    });
  });

  it('what the composer inserts, the host reads back as the same paths', () => {
    let text = 'compare @ and @';
    const first = insertMention(text, activeMention(text, 9)!, 'src/a b.ts');
    text = first.text;
    const second = insertMention(text, activeMention(text, text.length)!, 'lib/c.ts');
    expect(mentionedPaths(second.text)).toEqual(['src/a b.ts', 'lib/c.ts']);
  });
});

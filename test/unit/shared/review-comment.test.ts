import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../shared/diff/unified-diff';
import {
  commentPlace,
  reviewCommentMessage,
  type QuotedLine,
} from '../../../shared/diff/review-comment';

const PATCH = [
  'diff --git a/src/server.ts b/src/server.ts',
  '--- a/src/server.ts',
  '+++ b/src/server.ts',
  '@@ -1,2 +1,3 @@',
  '-const PORT = 3000;',
  '+const PORT = Number(process.env.PORT ?? 3000);',
  '+const HOST = `0.0.0.0`;',
  ' export default PORT;',
  '',
].join('\n');

const lines = () =>
  parseUnifiedDiff(PATCH)[0]!.rows.filter(
    (r): r is QuotedLine => r.kind !== 'hunk' && r.kind !== 'meta',
  );

describe('a review comment as the message the session receives', () => {
  it('names the file and both sides of a range that removed and added lines', () => {
    expect(commentPlace(lines())).toBe('lines 1–3 (and removed line 1 of the old version)');
  });

  it('names one new line, or removed lines alone, plainly', () => {
    const [del, add] = lines();
    expect(commentPlace([add!])).toBe('line 1');
    expect(commentPlace([del!])).toBe('removed line 1 of the old version');
  });

  it('quotes every line with its mark and its old and new numbers, then the comment', () => {
    const text = reviewCommentMessage({
      path: 'src/server.ts',
      lines: lines(),
      comment: '  Keep 3000 when PORT is not a number.  ',
    });
    expect(text).toBe(
      [
        'Review comment on src/server.ts, lines 1–3 (and removed line 1 of the old version):',
        '```',
        '  old new',
        '- 1   | const PORT = 3000;',
        '+   1 | const PORT = Number(process.env.PORT ?? 3000);',
        '+   2 | const HOST = `0.0.0.0`;',
        '  2 3 | export default PORT;',
        '```',
        '',
        'Keep 3000 when PORT is not a number.',
      ].join('\n'),
    );
  });

  it('fences the quote with more backticks than any line holds, so no line closes it', () => {
    const text = reviewCommentMessage({
      path: 'README.md',
      lines: [{ kind: 'add', text: '````ts', newLine: 12 }],
      comment: 'Close this block.',
    });
    expect(text.split('\n')[1]).toBe('`````');
    expect(text.split('\n')[4]).toBe('`````');
  });
});

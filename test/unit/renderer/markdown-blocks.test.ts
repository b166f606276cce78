import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../../../renderer/src/lib/markdown-blocks';

describe('markdownBlocks', () => {
  it('splits paragraphs at blank lines and keeps fenced code whole, blank lines included', () => {
    const text = 'First para\nstill first\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nLast';
    expect(markdownBlocks(text)).toEqual([
      'First para\nstill first',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      'Last',
    ]);
  });

  it("keeps a list item's indented next paragraph in the list's block", () => {
    expect(markdownBlocks('- a\n\n  more of a\n- b\n\nAfter')).toEqual([
      '- a\n\n  more of a\n- b',
      'After',
    ]);
  });

  it('a block once finished never changes as the text grows (what lets it keep its rendering)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('para', '', '```', '  indented', '- item', '~~~', '# h'), {
          maxLength: 40,
        }),
        fc.nat(),
        (lines, cut) => {
          const text = lines.join('\n');
          const prefix = text.slice(0, cut % (text.length + 1));
          const early = markdownBlocks(prefix);
          const late = markdownBlocks(text);
          // Every block of the prefix but its last is a finished block of the whole text.
          expect(late.slice(0, Math.max(0, early.length - 1))).toEqual(early.slice(0, -1));
        },
      ),
    );
  });

  it('loses no text: the blocks joined by blank lines hold every non-blank line in order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '', '```', '  b', '- c')), (lines) => {
        const text = lines.join('\n');
        const kept = markdownBlocks(text)
          .join('\n')
          .split('\n')
          .filter((l) => l.trim() !== '');
        expect(kept).toEqual(lines.filter((l) => l.trim() !== ''));
      }),
    );
  });
});

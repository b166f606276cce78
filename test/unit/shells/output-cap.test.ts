import { describe, expect, test } from 'vitest';
import { capMiddle, HeadTailCollector } from '../../../electron/host/shells/output-cap';

describe('output cap', () => {
  test('text within the cap is returned whole', () => {
    expect(capMiddle('short', 100)).toEqual({ text: 'short', truncated: 0 });
  });

  test('over the cap, the first and last characters are kept around a marker that states the rule', () => {
    const text = `FIRST LINE\n${'x'.repeat(50_000)}\nLAST LINE\n`;
    const capped = capMiddle(text, 30_000);
    expect(capped.text.length).toBeLessThanOrEqual(30_000);
    expect(capped.text.startsWith('FIRST LINE\n')).toBe(true);
    expect(capped.text.endsWith('\nLAST LINE\n')).toBe(true);
    expect(capped.text).toMatch(
      /characters omitted: output over the result cap keeps its first [\d,]+ and last [\d,]+ characters/,
    );
    expect(capped.truncated).toBe(text.length - 29_800);
  });

  test('a stream of any length is cut the same way while holding only head and tail', () => {
    const collector = new HeadTailCollector(1000);
    let all = '';
    for (let i = 0; i < 10_000; i++) {
      const piece = `line ${i}\n`;
      collector.append(piece);
      all += piece;
    }
    const result = collector.result();
    const direct = capMiddle(all, 1000);
    expect(result).toEqual(direct);
    expect(result.text.startsWith('line 0\n')).toBe(true);
    expect(result.text.endsWith('line 9999\n')).toBe(true);
  });
});

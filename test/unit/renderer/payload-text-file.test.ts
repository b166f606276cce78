import { describe, expect, it } from 'vitest';
import { readRange } from '../../../renderer/src/components/cards/payload-text';

// read_file's card header for a file too large to count (total_lines null, tail numbered from the end).

describe('readRange', () => {
  it('says when a file was too large to count, and names a tail window from the end', () => {
    const base = { kind: 'file', path: 'a.log', content: '', truncated: false };
    expect(readRange({ ...base, start_line: 1, end_line: 5, total_lines: 9 })).toBe(
      'lines 1–5 of 9',
    );
    expect(
      readRange({ ...base, start_line: 1, end_line: 5, total_lines: null, truncated: true }),
    ).toBe('lines 1–5 of a file too large to count, truncated');
    expect(
      readRange({ ...base, start_line: -2, end_line: -1, total_lines: null, lines_from_end: true }),
    ).toBe('last lines -2–-1 of a file too large to count');
  });
});

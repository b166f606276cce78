import { describe, expect, it } from 'vitest';
import { DROPPED_MARKER, newOutput } from '../../../electron/host/acp/agent/editor-terminal-child';

// What a background shell in the editor's terminal hands on from each terminal/output read: the
// text beyond the last read, also once the editor keeps only the tail of the output.

describe("a background shell's output read from the editor's terminal", () => {
  it('hands on only what was added since the last read', () => {
    expect(newOutput('', 'one\n', false)).toBe('one\n');
    expect(newOutput('one\n', 'one\ntwo\n', false)).toBe('two\n');
    expect(newOutput('one\n', 'one\n', false)).toBe('');
  });

  it('once the editor dropped the start, hands on what follows the text read last', () => {
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `line-${from + i}\n`).join('');
    const before = lines(1, 20);
    // The editor kept the tail from the middle of line 11, then lines 21 to 25 came.
    const now = lines(11, 25).slice(3);
    expect(newOutput(before, now, true)).toBe(lines(21, 25));
    // A line repeated exactly is never handed on twice.
    expect(newOutput('tick\n'.repeat(30), `${'tick\n'.repeat(29)}done\n`, true)).toBe('done\n');
  });

  it('marks text the editor dropped before it was ever read', () => {
    expect(newOutput('', 'tail only\n', true)).toBe(`${DROPPED_MARKER}tail only\n`);
    expect(newOutput('gone\n', 'all new\n', true)).toBe(`${DROPPED_MARKER}all new\n`);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupDigits } from '../../../shared/group-digits';

describe('groupDigits', () => {
  it("writes every safe integer as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
    for (const n of [0, 7, 999, 1000, -1000, 30_000, 1_048_576, -123_456_789])
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rankPaths } from '../../../electron/host/projects/fuzzy-path';

// The `@` menu's ranking: what is listed must contain the query in order; the file the user
// typed the name of comes first.

const isSubsequence = (query: string, path: string) => {
  let i = 0;
  for (const c of path.toLowerCase()) if (c === query[i]) i++;
  return i === query.length;
};

describe('fuzzy path ranking', () => {
  const paths = [
    'src/server.ts',
    'src/services/session-runner.ts',
    'test/server.test.ts',
    'docs/observer-notes.md',
    'renderer/src/components/conversation/Composer.tsx',
    'README.md',
  ];

  it('a typed file name ranks that file first, before paths that only contain its letters', () => {
    expect(rankPaths(paths, 'server', 10)[0]).toBe('src/server.ts');
    expect(rankPaths(paths, 'composer', 10)[0]).toBe(
      'renderer/src/components/conversation/Composer.tsx',
    );
    expect(rankPaths(paths, 'readme', 10)[0]).toBe('README.md');
  });

  it('letters spread over the path still match, in order only', () => {
    expect(rankPaths(paths, 'srvts', 10)).toContain('src/server.ts');
    expect(rankPaths(paths, 'stsrv', 10)).not.toContain('src/server.ts');
    expect(rankPaths(paths, 'zzz', 10)).toEqual([]);
  });

  it('an empty query lists the shallowest files first, within the limit', () => {
    expect(rankPaths(paths, '', 2)).toEqual(['README.md', 'src/server.ts']);
  });

  it('every listed path holds the query as a subsequence, and no more than the limit are listed', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(
          fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/')),
          { maxLength: 40 },
        ),
        fc.stringMatching(/^[a-z0-9.]{0,4}$/),
        fc.integer({ min: 1, max: 10 }),
        (list, query, limit) => {
          const out = rankPaths(list, query, limit);
          expect(out.length).toBeLessThanOrEqual(limit);
          for (const p of out) expect(isSubsequence(query, p)).toBe(true);
          // Nothing that matches is lost while there is room.
          const matching = list.filter((p) => isSubsequence(query, p));
          expect(out.length).toBe(Math.min(limit, matching.length));
        },
      ),
    );
  });
});

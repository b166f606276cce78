import { describe, expect, it } from 'vitest';
import {
  cleanMessage,
  fallbackMessage,
  proposeCommitMessage,
} from '../../../electron/host/worktrees/commit-message';
import { COMMIT_PROMPT_DIFF_CHARS } from '../../../electron/host/worktrees/constants';
import { ModelError } from '../../../electron/host/models/model-error';
import { HostError } from '../../../electron/host/rpc/host-error';

describe('the commit message the Review proposes', () => {
  it('takes the model wrapping off: fences, a label, quotes, runs of blank lines', () => {
    expect(cleanMessage('```text\nFix the parser\n```')).toBe('Fix the parser');
    expect(cleanMessage('Commit message: Fix the parser')).toBe('Fix the parser');
    expect(cleanMessage('"Fix the parser"')).toBe('Fix the parser');
    expect(cleanMessage('Fix the parser   \n\n\n\nIt read past the end.  ')).toBe(
      'Fix the parser\n\nIt read past the end.',
    );
  });

  it('names one file, or a few and counts the rest, when the model gives nothing', () => {
    expect(fallbackMessage(['a.ts'])).toBe('Update a.ts');
    expect(fallbackMessage(['a.ts', 'b.ts'])).toBe('Update 2 files: a.ts, b.ts');
    expect(fallbackMessage(['a', 'b', 'c', 'd', 'e'])).toBe('Update 5 files: a, b, c and 2 more');
  });

  it("sends the diff and the files, cut with a note past the limit, and returns the model's message", async () => {
    const prompts: string[] = [];
    const long = 'x'.repeat(COMMIT_PROMPT_DIFF_CHARS + 10);
    const r = await proposeCommitMessage(long, ['a.ts'], async (req) => {
      prompts.push(req.prompt);
      return 'Grow a';
    });
    expect(r).toEqual({ message: 'Grow a', source: 'model', reason: null });
    expect(prompts[0]).toContain('(a.ts)');
    expect(prompts[0]).toContain(`cut after its first ${COMMIT_PROMPT_DIFF_CHARS} characters`);
    expect(prompts[0]).not.toContain('x'.repeat(COMMIT_PROMPT_DIFF_CHARS + 1));
  });

  it('falls back with the reason when the model fails, is not set, or answers nothing', async () => {
    const cases: [() => Promise<string>, string][] = [
      [
        () => Promise.reject(new ModelError('server', 'the provider failed (500)')),
        'the provider failed (500)',
      ],
      [() => Promise.reject(new HostError('no_model', 'no model is set')), 'no model is set'],
      [async () => '  ``` \n```', 'the model answered with nothing'],
    ];
    for (const [ask, reason] of cases)
      expect(await proposeCommitMessage('diff', ['a.ts', 'b.ts'], ask)).toEqual({
        message: 'Update 2 files: a.ts, b.ts',
        source: 'fallback',
        reason,
      });
  });
});

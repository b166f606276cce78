import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { DIFF_TEXT_MAX_CHARS, unifiedDiff } from '../../../electron/host/fs/unified-diff';
import { tempDir } from '../../helpers/temp';

// The diff text must be a real unified diff (it applies back), with exact counts, whichever
// path produced it: exact Myers, or the anchored fallback for inputs with many changes.

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

function mutate(lines: string[], changes: number, r: (n: number) => number): string[] {
  const b = lines.slice();
  for (let i = 0; i < changes; i++) {
    const p = r(b.length + 1);
    const kind = r(3);
    if (kind === 0) b.splice(p, 0, `new ${r(5)}`);
    else if (kind === 1) b.splice(p, 1);
    else b[p] = `changed ${r(3)}`;
  }
  return b;
}

describe('unifiedDiff', () => {
  it('produces diffs that apply back, with or without final newlines', () => {
    const r = rng(42);
    for (let t = 0; t < 500; t++) {
      const a = Array.from({ length: r(40) }, () => (r(5) === 0 ? '' : `l${r(8)}`));
      const b = mutate(a, r(6), r);
      const before = a.join('\n') + (r(2) ? '\n' : '');
      const after = b.join('\n') + (r(2) ? '\n' : '');
      const d = unifiedDiff(before, after, { path: 'f' });
      expect(d.text ? applyPatch(before, d.text) : before).toBe(after);
    }
  });

  it('matches GNU diff -u for a simple change', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const before = Array.from({ length: 20 }, (_, i) => `row ${i}`).join('\n') + '\n';
    const after = before.replace('row 5\n', 'row five\n').replace('row 15\n', '');
    writeFileSync(join(t.dir, 'a'), before);
    writeFileSync(join(t.dir, 'b'), after);
    let gnu = '';
    try {
      execFileSync('diff', [
        '-u',
        '--label',
        'a/f',
        '--label',
        'b/f',
        join(t.dir, 'a'),
        join(t.dir, 'b'),
      ]);
    } catch (err) {
      gnu = String((err as { stdout: Buffer }).stdout);
    }
    expect(unifiedDiff(before, after, { path: 'f' }).text).toBe(gnu);
  });

  it('marks a missing final newline and a created file', () => {
    expect(unifiedDiff('a\nb', 'a\nc', { path: 'f' }).text).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
    expect(unifiedDiff('', 'x\n', { path: 'n', created: true }).text).toBe(
      '--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n'.replace('+1 @@', '+1,1 @@'),
    );
    expect(unifiedDiff('same\n', 'same\n', { path: 'f' })).toEqual({
      text: '',
      additions: 0,
      deletions: 0,
    });
  });

  it('stays correct on a 50,000-line file with thousands of changes (the bounded fallback)', () => {
    const base = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${i % 97}`);
    const changed = base.slice();
    for (let i = 0; i < base.length; i += 7) changed[i] = `edited ${i}`;
    const before = base.join('\n') + '\n';
    const after = changed.join('\n') + '\n';
    const d = unifiedDiff(before, after, { path: 'big' });
    expect(d.additions).toBe(Math.ceil(50_000 / 7));
    expect(d.deletions).toBe(Math.ceil(50_000 / 7));
    expect(d.text.length).toBeLessThanOrEqual(DIFF_TEXT_MAX_CHARS + 100);
    expect(d.text).toMatch(/\.\.\. \(diff truncated: \d+ more lines\)\n$/);
  });

  it('a fallback diff without truncation applies back', () => {
    const r = rng(7);
    const base = Array.from({ length: 6000 }, (_, i) => `v${i}`);
    const changed = mutate(base, 1500, r);
    const before = base.join('\n') + '\n';
    const after = changed.join('\n') + '\n';
    const d = unifiedDiff(before, after, { path: 'f' });
    expect(d.text.length).toBeLessThan(DIFF_TEXT_MAX_CHARS);
    expect(applyPatch(before, d.text)).toBe(after);
  });

  it('numbers hunks deep in a big file from the real line', () => {
    const before = Array.from({ length: 100_000 }, (_, i) => `n${i}`).join('\n') + '\n';
    const after = before.replace('n77777\n', 'N\n');
    expect(unifiedDiff(before, after, { path: 'f' }).text.split('\n')[2]).toBe(
      '@@ -77775,7 +77775,7 @@',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff, toSplitRows } from '../../../renderer/src/lib/unified-diff';

const TEXT = `--- a/src/a.ts
+++ b/src/a.ts
@@ -1,3 +1,4 @@
 one
-two
+TWO
+two and a half
 three
`;

describe('parseUnifiedDiff', () => {
  it('numbers each side of every row from the hunk header', () => {
    const [file] = parseUnifiedDiff(TEXT);
    expect(file!.newPath).toBe('src/a.ts');
    expect(file!.rows.map((r) => [r.kind, r.oldLine ?? null, r.newLine ?? null])).toEqual([
      ['hunk', null, null],
      ['context', 1, 1],
      ['del', 2, null],
      ['add', null, 2],
      ['add', null, 3],
      ['context', 3, 4],
    ]);
    expect([file!.additions, file!.deletions]).toEqual([2, 1]);
  });

  it('reads a created file (old side /dev/null) and a truncation marker without throwing', () => {
    const [file] = parseUnifiedDiff(
      '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hello\n... (diff truncated: 9 more lines)\n',
    );
    expect(file!.oldPath).toBeNull();
    expect(file!.rows.at(-1)).toEqual({ kind: 'meta', text: '... (diff truncated: 9 more lines)' });
  });

  it('splits several files', () => {
    const files = parseUnifiedDiff(`${TEXT}--- a/b.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-x\n+y\n`);
    expect(files.map((f) => f.newPath)).toEqual(['src/a.ts', 'b.ts']);
  });
});

describe('toSplitRows', () => {
  it('pairs a run of deletions with the additions after it, line for line', () => {
    const rows = toSplitRows(parseUnifiedDiff(TEXT)[0]!.rows);
    const shape = rows.map((r) =>
      r.full ? 'full' : `${r.left?.kind ?? '-'}|${r.right?.kind ?? '-'}`,
    );
    expect(shape).toEqual(['full', 'context|context', 'del|add', '-|add', 'context|context']);
  });
});

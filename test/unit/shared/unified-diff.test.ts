import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff, toSplitRows } from '../../../shared/diff/unified-diff';

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

  it("reads git's own diff as one file per `diff --git` header, a binary file named by it", () => {
    const files = parseUnifiedDiff(
      'diff --git a/src/a.ts b/src/a.ts\nindex 1111111..2222222 100644\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-x\n+y\n' +
        'diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n' +
        'diff --git a/logo.png b/logo.png\nindex 4444444..5555555 100644\nBinary files a/logo.png and b/logo.png differ\n',
    );
    expect(files.map((f) => [f.oldPath, f.newPath, f.additions, f.deletions])).toEqual([
      ['src/a.ts', 'src/a.ts', 1, 1],
      [null, 'new.txt', 1, 0],
      ['logo.png', 'logo.png', 0, 0],
    ]);
    expect(files[1]!.rows[0]).toEqual({ kind: 'meta', text: 'new file mode 100644' });
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

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { ToolPayload } from '../../../shared/tools/payload';
import { TRUNCATION_MARKER } from '../../../electron/host/tools/constants';

// Every rule of the file tools as one case: files to set up, a call, and what the payload and the
// disk must show afterwards. The same list runs through the tool API (unit) and through
// `mewbo tool` (integration), so the two can never drift apart.

export interface RuleCase {
  rule: string;
  tool: 'read_file' | 'aider_edit_block_tool' | 'file_edit_tool' | 'aider_list_dir_tool';
  setup?: (root: string, outside: string) => void;
  args: (root: string) => Record<string, unknown>;
  check: (p: ToolPayload, root: string, outside: string) => void;
}

const put = (root: string, rel: string, content: string | Buffer): void => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};
const read = (root: string, rel: string): string => readFileSync(join(root, rel), 'utf8');
const lines = (n: number, f = (i: number) => `line ${i}`): string =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
const block = (file: string, search: string, replace: string, lang = ''): string =>
  `${file}\n\`\`\`${lang}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;

function expectError(p: ToolPayload, code: string, ...fragments: Array<string | RegExp>): void {
  expect(p.kind).toBe('error');
  expect(p.code).toBe(code);
  for (const f of fragments) expect(String(p.message)).toMatch(f);
}

function expectDiff(p: ToolPayload, files: string[]): void {
  expect(p.kind, JSON.stringify(p)).toBe('diff');
  expect(Object.keys(p).sort()).toEqual(
    expect.arrayContaining(['kind', 'title', 'text', 'files', 'additions', 'deletions']),
  );
  expect(p.files).toEqual(files);
  expect(typeof p.title).toBe('string');
}

const readFileCases: RuleCase[] = [
  {
    rule: 'read_file numbers lines from 1 like cat -n',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', 'one\ntwo\nthree\n'),
    args: () => ({ path: 'a.txt' }),
    check: (p, r) => {
      expect(p.kind).toBe('file');
      expect(p.content).toBe(
        execFileSync('cat', ['-n', join(r, 'a.txt')], { encoding: 'utf8' }).replace(/\n$/, ''),
      );
      expect(p).toMatchObject({ start_line: 1, end_line: 3, total_lines: 3, truncated: false });
    },
  },
  {
    rule: 'read_file offset is a 0-based first line and limit bounds the window; a cut window ends with the exact marker',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', lines(10)),
    args: () => ({ path: 'a.txt', offset: 2, limit: 3 }),
    check: (p) => {
      expect(p.content).toBe(
        `     3\tline 3\n     4\tline 4\n     5\tline 5\n${TRUNCATION_MARKER}`,
      );
      expect(TRUNCATION_MARKER).toBe('... (truncated - use offset/limit to read more)');
      expect(p).toMatchObject({
        start_line: 3,
        end_line: 5,
        total_lines: 10,
        truncated: true,
        next_offset: 5,
      });
    },
  },
  {
    rule: 'read_file window that reaches the end carries no marker',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', lines(10)),
    args: () => ({ path: 'a.txt', offset: 8 }),
    check: (p) => {
      expect(p.content).toBe('     9\tline 9\n    10\tline 10');
      expect(p.truncated).toBe(false);
    },
  },
  {
    rule: 'read_file default limit is 2000 lines',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', lines(2500)),
    args: () => ({ path: 'a.txt' }),
    check: (p) => {
      expect(p).toMatchObject({
        start_line: 1,
        end_line: 2000,
        total_lines: 2500,
        truncated: true,
        next_offset: 2000,
      });
      expect(String(p.content).endsWith(`  2000\tline 2000\n${TRUNCATION_MARKER}`)).toBe(true);
    },
  },
  {
    rule: 'read_file negative offset reads the tail',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', lines(1000)),
    args: () => ({ path: 'a.txt', offset: -2 }),
    check: (p) => expect(p.content).toBe('   999\tline 999\n  1000\tline 1000'),
  },
  {
    rule: 'read_file cuts a very long line with a visible marker',
    tool: 'read_file',
    setup: (r) => put(r, 'min.js', `short\n${'x'.repeat(5000)}\nend\n`),
    args: () => ({ path: 'min.js' }),
    check: (p) => {
      const second = String(p.content).split('\n')[1]!;
      expect(second).toBe(`     2\t${'x'.repeat(2000)} ... [line cut: 3000 more bytes]`);
      expect(String(p.content).split('\n')[2]).toBe('     3\tend');
    },
  },
  {
    rule: 'read_file caps a result at 200,000 characters and says so with the marker',
    tool: 'read_file',
    setup: (r) =>
      put(
        r,
        'wide.txt',
        lines(2000, (i) => `${i} ${'y'.repeat(1500)}`),
      ),
    args: () => ({ path: 'wide.txt' }),
    check: (p) => {
      expect(String(p.content).length).toBeLessThanOrEqual(200_000);
      expect(String(p.content).endsWith(`\n${TRUNCATION_MARKER}`)).toBe(true);
      expect(p.truncated).toBe(true);
      expect(p.next_offset).toBe(p.end_line);
      expect(Number(p.end_line)).toBeGreaterThan(100);
    },
  },
  {
    rule: 'read_file with a huge limit stays within the character cap',
    tool: 'read_file',
    setup: (r) =>
      put(
        r,
        'many.txt',
        lines(100_000, (i) => `${i} ${'m'.repeat(60)}`),
      ),
    args: () => ({ path: 'many.txt', limit: 100_000_000 }),
    check: (p) => {
      expect(String(p.content).length).toBeLessThanOrEqual(200_000);
      expect(p).toMatchObject({ truncated: true, total_lines: 100_000 });
    },
  },
  {
    rule: 'read_file shows CRLF lines without their carriage return',
    tool: 'read_file',
    setup: (r) => put(r, 'win.txt', 'a\r\nb\r\n'),
    args: () => ({ path: 'win.txt' }),
    check: (p) => expect(p.content).toBe('     1\ta\n     2\tb'),
  },
  {
    rule: 'read_file counts a last line without a newline',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', 'a\nb'),
    args: () => ({ path: 'a.txt' }),
    check: (p) => expect(p).toMatchObject({ content: '     1\ta\n     2\tb', total_lines: 2 }),
  },
  {
    rule: 'read_file returns a binary payload for a binary file',
    tool: 'read_file',
    setup: (r) => put(r, 'img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3])),
    args: () => ({ path: 'img.png' }),
    check: (p) => {
      expect(p).toMatchObject({ kind: 'binary', path: 'img.png', size_bytes: 11 });
      expect(String(p.message)).toMatch(/binary/);
    },
  },
  {
    rule: 'read_file on a directory is an is_directory error pointing at the list tool',
    tool: 'read_file',
    setup: (r) => mkdirSync(join(r, 'src')),
    args: () => ({ path: 'src' }),
    check: (p) => expectError(p, 'is_directory', /aider_list_dir_tool/),
  },
  {
    rule: 'read_file on a missing file is not_found with a near name',
    tool: 'read_file',
    setup: (r) => put(r, 'README.md', '# hi\n'),
    args: () => ({ path: 'README.MD' }),
    check: (p) => expectError(p, 'not_found', /README\.MD/, /Did you mean: README\.md/),
  },
  {
    rule: 'read_file of an empty file says it is empty',
    tool: 'read_file',
    setup: (r) => put(r, 'empty.txt', ''),
    args: () => ({ path: 'empty.txt' }),
    check: (p) =>
      expect(p).toMatchObject({
        kind: 'file',
        content: '',
        total_lines: 0,
        note: 'The file is empty.',
      }),
  },
  {
    rule: 'read_file past the end returns no lines and a note',
    tool: 'read_file',
    setup: (r) => put(r, 'a.txt', lines(3)),
    args: () => ({ path: 'a.txt', offset: 50 }),
    check: (p) =>
      expect(p).toMatchObject({
        kind: 'file',
        content: '',
        truncated: false,
        note: expect.stringMatching(/past the end.*3 lines/),
      }),
  },
  {
    rule: 'read_file refuses a FIFO instead of blocking on it',
    tool: 'read_file',
    setup: (r) => execFileSync('mkfifo', [join(r, 'pipe')]),
    args: () => ({ path: 'pipe' }),
    check: (p) => expectError(p, 'not_regular_file'),
  },
  {
    rule: 'read_file refuses a path outside the root',
    tool: 'read_file',
    setup: (_r, o) => writeFileSync(join(o, 'secret'), 'x'),
    args: () => ({ path: '../outside/secret' }),
    check: (p) => expectError(p, 'path_validation', /outside the project root/),
  },
];

const editBlockCases: RuleCase[] = [
  {
    rule: 'edit block applies and returns the diff payload',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'src/utils.py', 'def old_function():\n    return 1\n'),
    args: () => ({
      content: block(
        'src/utils.py',
        'def old_function():\n    return 1\n',
        'def new_function():\n    return 2\n',
        'python',
      ),
    }),
    check: (p, r) => {
      expectDiff(p, ['src/utils.py']);
      expect(p).toMatchObject({ additions: 2, deletions: 2, title: 'Edited src/utils.py (+2 -2)' });
      expect(p.text).toBe(
        '--- a/src/utils.py\n+++ b/src/utils.py\n@@ -1,2 +1,2 @@\n-def old_function():\n-    return 1\n+def new_function():\n+    return 2\n',
      );
      expect(read(r, 'src/utils.py')).toBe('def new_function():\n    return 2\n');
    },
  },
  {
    rule: 'edit block: several blocks for one file apply in any order, in one fence or several',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', lines(20)),
    args: () => ({
      content:
        'First the end:\n' +
        block('a.txt', 'line 18\n', 'LINE 18\n') +
        'a.txt\n```\n<<<<<<< SEARCH\nline 2\n=======\nLINE 2\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nline 10\n=======\nLINE 10\n>>>>>>> REPLACE\n```\n',
    }),
    check: (p, r) => {
      expectDiff(p, ['a.txt']);
      expect(read(r, 'a.txt')).toBe(
        lines(20)
          .replace('line 18\n', 'LINE 18\n')
          .replace('line 2\n', 'LINE 2\n')
          .replace('line 10\n', 'LINE 10\n'),
      );
      expect(p).toMatchObject({ additions: 3, deletions: 3, blocks: 3 });
    },
  },
  {
    rule: 'edit block is all-or-nothing across files and names each failing block with its near-match',
    tool: 'aider_edit_block_tool',
    setup: (r) => {
      put(r, 'a.txt', 'alpha\nbeta\n');
      put(r, 'b.py', 'def compute(x):\n    return x * 2\n');
    },
    args: () => ({
      content:
        block('a.txt', 'alpha\n', 'ALPHA\n') +
        block('b.py', 'def compute(x):\n    return x * 3\n', 'def compute(x):\n    return x * 4\n'),
    }),
    check: (p, r) => {
      expectError(
        p,
        'no_match',
        /Block 2 \(b\.py/,
        /nothing was changed/,
        /Closest near-match, lines 1-2/,
        /return x \* 2/,
        /Blocks 1 matched/,
      );
      expect(p.details).toMatchObject({ failed_blocks: [2] });
      expect(read(r, 'a.txt')).toBe('alpha\nbeta\n');
      expect(read(r, 'b.py')).toBe('def compute(x):\n    return x * 2\n');
    },
  },
  {
    rule: 'edit block: an empty SEARCH creates a new file, parents included',
    tool: 'aider_edit_block_tool',
    args: () => ({ content: block('new/dir/hello.txt', '', 'hello\nworld\n') }),
    check: (p, r) => {
      expectDiff(p, ['new/dir/hello.txt']);
      expect(p).toMatchObject({
        title: 'Created new/dir/hello.txt (+2 -0)',
        additions: 2,
        deletions: 0,
      });
      expect(
        String(p.text).startsWith('--- /dev/null\n+++ b/new/dir/hello.txt\n@@ -0,0 +1,2 @@\n'),
      ).toBe(true);
      expect(read(r, 'new/dir/hello.txt')).toBe('hello\nworld\n');
    },
  },
  {
    rule: 'edit block: an empty SEARCH on an existing file appends',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'log.txt', 'first'),
    args: () => ({ content: block('log.txt', '', 'second\n') }),
    check: (p, r) => {
      expectDiff(p, ['log.txt']);
      expect(read(r, 'log.txt')).toBe('first\nsecond\n');
    },
  },
  {
    rule: 'edit block: `...` lines in both sections skip the unchanged span',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', lines(30)),
    args: () => ({ content: block('a.txt', 'line 3\n...\nline 25\n', 'LINE 3\n...\nLINE 25\n') }),
    check: (p, r) => {
      expectDiff(p, ['a.txt']);
      expect(read(r, 'a.txt')).toBe(
        lines(30).replace('line 3\n', 'LINE 3\n').replace('line 25\n', 'LINE 25\n'),
      );
    },
  },
  {
    rule: 'edit block: `...` must pair up between SEARCH and REPLACE',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', lines(30)),
    args: () => ({ content: block('a.txt', 'line 3\n...\nline 25\n', 'LINE 3\nLINE 25\n') }),
    check: (p, r) => {
      expectError(p, 'no_match', /`\.\.\.`/, /pair up/);
      expect(read(r, 'a.txt')).toBe(lines(30));
    },
  },
  {
    rule: 'edit block rejects shell code blocks',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'a\n'),
    args: () => ({
      content: 'Run this:\n```bash\nrm -rf build\n```\n' + block('a.txt', 'a\n', 'b\n'),
    }),
    check: (p, r) => {
      expectError(p, 'shell_block_rejected', /aider_shell_tool/, /line 2/);
      expect(read(r, 'a.txt')).toBe('a\n');
    },
  },
  {
    rule: 'edit block: a bash-fenced block that edits a shell script is an edit, not a command',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'run.sh', 'echo hi\n'),
    args: () => ({ content: block('run.sh', 'echo hi\n', 'echo bye\n', 'bash') }),
    check: (p, r) => {
      expectDiff(p, ['run.sh']);
      expect(read(r, 'run.sh')).toBe('echo bye\n');
    },
  },
  {
    rule: 'edit block: files is an allowlist',
    tool: 'aider_edit_block_tool',
    setup: (r) => {
      put(r, 'a.txt', 'a\n');
      put(r, 'b.txt', 'b\n');
    },
    args: () => ({
      content: block('a.txt', 'a\n', 'A\n') + block('b.txt', 'b\n', 'B\n'),
      files: ['a.txt'],
    }),
    check: (p, r) => {
      expectError(p, 'not_allowed', /block 2 \(b\.txt\)/);
      expect(read(r, 'a.txt')).toBe('a\n');
      expect(read(r, 'b.txt')).toBe('b\n');
    },
  },
  {
    rule: 'edit block keeps CRLF line endings',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'win.txt', 'one\r\ntwo\r\nthree\r\n'),
    args: () => ({ content: block('win.txt', 'two\n', 'TWO\nand more\n') }),
    check: (p, r) => {
      expectDiff(p, ['win.txt']);
      expect(readFileSync(join(r, 'win.txt'), 'latin1')).toBe(
        'one\r\nTWO\r\nand more\r\nthree\r\n',
      );
      expect(String(p.text)).not.toContain('\r');
    },
  },
  {
    rule: 'edit block falls back to shifted indentation only when unique, and says so',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.py', 'class A:\n    def f(self):\n        return 1\n'),
    args: () => ({
      content: block('a.py', 'def f(self):\n    return 1\n', 'def f(self):\n    return 2\n'),
    }),
    check: (p, r) => {
      expectDiff(p, ['a.py']);
      expect(read(r, 'a.py')).toBe('class A:\n    def f(self):\n        return 2\n');
      expect(p.fallbacks).toEqual([{ block: 1, file: 'a.py', kind: 'indentation' }]);
      expect(String(p.note)).toMatch(/shifting its indentation/);
    },
  },
  {
    rule: 'edit block does not use the indentation fallback when it matches more than one place',
    tool: 'aider_edit_block_tool',
    setup: (r) =>
      put(
        r,
        'a.py',
        'class A:\n    def f(self):\n        return 1\nclass B:\n    def f(self):\n        return 1\n',
      ),
    args: () => ({
      content: block('a.py', 'def f(self):\n    return 1\n', 'def f(self):\n    return 2\n'),
    }),
    check: (p, r) => {
      expectError(p, 'no_match', /re-indented match was ambiguous/);
      expect(read(r, 'a.py')).toBe(
        'class A:\n    def f(self):\n        return 1\nclass B:\n    def f(self):\n        return 1\n',
      );
    },
  },
  {
    rule: 'edit block falls back to dropping a leading blank line, and says so',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'x\ny\nz\n'),
    args: () => ({ content: block('a.txt', '\ny\n', 'Y\n') }),
    check: (p, r) => {
      expectDiff(p, ['a.txt']);
      expect(read(r, 'a.txt')).toBe('x\nY\nz\n');
      expect(p.fallbacks).toEqual([{ block: 1, file: 'a.txt', kind: 'leading_blank_line' }]);
    },
  },
  {
    rule: 'edit block: an exact SEARCH matching several places is refused with the count',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'same\nother\nsame\n'),
    args: () => ({ content: block('a.txt', 'same\n', 'diff\n') }),
    check: (p, r) => {
      expectError(p, 'no_match', /matches 2 places/);
      expect(read(r, 'a.txt')).toBe('same\nother\nsame\n');
    },
  },
  {
    rule: 'edit block: the filename must be the line right before the opening fence',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'a\n'),
    args: () => ({
      content:
        'Here is the change:\n```\na.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n',
    }),
    check: (p, r) => {
      expectError(p, 'parse_error', /block 1 \(line 4\)/, /right before the opening fence/);
      expect(read(r, 'a.txt')).toBe('a\n');
    },
  },
  {
    rule: 'edit block: a block without its REPLACE marker is a parse error naming it',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'a\n'),
    args: () => ({ content: 'a.txt\n```\n<<<<<<< SEARCH\na\n=======\nb\n```\n' }),
    check: (p, r) => {
      expectError(p, 'parse_error', /block 1 \(line 3\).*no >>>>>>> REPLACE/);
      expect(read(r, 'a.txt')).toBe('a\n');
    },
  },
  {
    rule: 'edit block: content without blocks is an error showing the format',
    tool: 'aider_edit_block_tool',
    args: () => ({ content: 'I would change the file like so.' }),
    check: (p) => expectError(p, 'no_blocks', /<<<<<<< SEARCH/),
  },
  {
    rule: 'edit block: a whitespace-only difference is pointed out by the near-match',
    tool: 'aider_edit_block_tool',
    setup: (r) => put(r, 'a.txt', 'if (x) {\n\treturn y;\n}\n'),
    args: () => ({
      content: block('a.txt', 'if (x) {\n  return  y;\n}\n', 'if (x) {\n  return z;\n}\n'),
    }),
    check: (p, r) => {
      expectError(p, 'no_match', /differs only in whitespace/, /First difference at line 2/);
      expect(read(r, 'a.txt')).toBe('if (x) {\n\treturn y;\n}\n');
    },
  },
  {
    rule: 'edit block keeps the file mode',
    tool: 'aider_edit_block_tool',
    setup: (r) => {
      put(r, 'tool.sh', '#!/bin/sh\necho a\n');
      chmodSync(join(r, 'tool.sh'), 0o755);
    },
    args: () => ({ content: block('tool.sh', 'echo a\n', 'echo b\n') }),
    check: (p, r) => {
      expectDiff(p, ['tool.sh']);
      expect(statSync(join(r, 'tool.sh')).mode & 0o777).toBe(0o755);
    },
  },
  {
    rule: 'edit block: a non-empty SEARCH on a missing file says how to create it',
    tool: 'aider_edit_block_tool',
    args: () => ({ content: block('nope.txt', 'a\n', 'b\n') }),
    check: (p, r) => {
      expectError(p, 'no_match', /nope\.txt does not exist; to create it use an empty SEARCH/);
      expect(existsSync(join(r, 'nope.txt'))).toBe(false);
    },
  },
];

const fileEditCases: RuleCase[] = [
  {
    rule: 'file_edit replaces one unique exact string and returns the diff',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.ts', 'const a = 1;\nconst b = 2;\n'),
    args: () => ({ file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }),
    check: (p, r) => {
      expectDiff(p, ['a.ts']);
      expect(p).toMatchObject({ additions: 1, deletions: 1, replacements: 1 });
      expect(p.text).toBe(
        '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n',
      );
      expect(read(r, 'a.ts')).toBe('const a = 1;\nconst b = 3;\n');
    },
  },
  {
    rule: 'file_edit refuses a string that matches more than once, naming the count',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.txt', 'x = 1\nx = 1\nx = 1\n'),
    args: () => ({ file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }),
    check: (p, r) => {
      expectError(p, 'ambiguous', /matches 3 places/, /replace_all/);
      expect(p.details).toMatchObject({ count: 3 });
      expect(read(r, 'a.txt')).toBe('x = 1\nx = 1\nx = 1\n');
    },
  },
  {
    rule: 'file_edit refuses a string that matches exactly twice, naming 2 places',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.txt', 'x = 1\ny = 0\nx = 1\n'),
    args: () => ({ file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }),
    check: (p, r) => {
      expectError(p, 'ambiguous', /old_string matches 2 places in a\.txt/, /replace_all/);
      expect(p.details).toMatchObject({ count: 2 });
      expect(read(r, 'a.txt')).toBe('x = 1\ny = 0\nx = 1\n');
    },
  },
  {
    rule: 'file_edit replace_all replaces every occurrence',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.txt', 'x = 1\nx = 1\nx = 1\n'),
    args: () => ({
      file_path: 'a.txt',
      old_string: 'x = 1',
      new_string: 'x = 2',
      replace_all: true,
    }),
    check: (p, r) => {
      expectDiff(p, ['a.txt']);
      expect(p).toMatchObject({ replacements: 3, additions: 3, deletions: 3 });
      expect(read(r, 'a.txt')).toBe('x = 2\nx = 2\nx = 2\n');
    },
  },
  {
    rule: 'file_edit with no match returns the closest near-match',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.py', 'def total(items):\n    return sum(items)\n'),
    args: () => ({
      file_path: 'a.py',
      old_string: 'def total(item):\n    return sum(item)\n',
      new_string: 'x',
    }),
    check: (p, r) => {
      expectError(
        p,
        'no_match',
        /not found in a\.py/,
        /Closest near-match, lines 1-2/,
        /def total\(items\)/,
      );
      expect(read(r, 'a.py')).toBe('def total(items):\n    return sum(items)\n');
    },
  },
  {
    rule: 'file_edit: an empty old_string appends',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'notes.md', '# Notes\n'),
    args: () => ({ file_path: 'notes.md', old_string: '', new_string: '- item\n' }),
    check: (p, r) => {
      expectDiff(p, ['notes.md']);
      expect(read(r, 'notes.md')).toBe('# Notes\n- item\n');
      expect(p.appended).toBe(true);
    },
  },
  {
    rule: 'file_edit: an empty old_string creates a missing file first',
    tool: 'file_edit_tool',
    args: () => ({ file_path: 'docs/new.md', old_string: '', new_string: 'hello\n' }),
    check: (p, r) => {
      expectDiff(p, ['docs/new.md']);
      expect(p.title).toBe('Created docs/new.md (+1 -0)');
      expect(read(r, 'docs/new.md')).toBe('hello\n');
    },
  },
  {
    rule: 'file_edit: an empty new_string deletes',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.txt', 'keep\ndrop me\nkeep\n'),
    args: () => ({ file_path: 'a.txt', old_string: 'drop me\n', new_string: '' }),
    check: (p, r) => {
      expectDiff(p, ['a.txt']);
      expect(p).toMatchObject({ additions: 0, deletions: 1 });
      expect(read(r, 'a.txt')).toBe('keep\nkeep\n');
    },
  },
  {
    rule: 'file_edit keeps CRLF line endings',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'w.txt', 'a\r\nb\r\n'),
    args: () => ({ file_path: 'w.txt', old_string: 'a\nb', new_string: 'a\nx\nb' }),
    check: (p, r) => {
      expectDiff(p, ['w.txt']);
      expect(readFileSync(join(r, 'w.txt'), 'latin1')).toBe('a\r\nx\r\nb\r\n');
    },
  },
  {
    rule: 'file_edit on a missing file with an old_string is not_found and says how to create',
    tool: 'file_edit_tool',
    args: () => ({ file_path: 'missing.txt', old_string: 'a', new_string: 'b' }),
    check: (p) => expectError(p, 'not_found', /empty old_string/),
  },
  {
    rule: 'file_edit refuses identical old and new strings',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'a.txt', 'a\n'),
    args: () => ({ file_path: 'a.txt', old_string: 'a', new_string: 'a' }),
    check: (p) => expectError(p, 'no_change'),
  },
  {
    rule: 'file_edit refuses a file too large to edit in memory, untouched',
    tool: 'file_edit_tool',
    setup: (r) => execFileSync('truncate', ['-s', '300M', join(r, 'huge.bin')]),
    args: () => ({ file_path: 'huge.bin', old_string: 'a', new_string: 'b' }),
    check: (p, r) => {
      expectError(p, 'too_large', /limited to/);
      expect(statSync(join(r, 'huge.bin')).size).toBe(300 * 1024 * 1024);
    },
  },
  {
    rule: 'file_edit refuses a binary file',
    tool: 'file_edit_tool',
    setup: (r) => put(r, 'b.bin', Buffer.from([1, 0, 2, 0xff])),
    args: () => ({ file_path: 'b.bin', old_string: 'a', new_string: 'b' }),
    check: (p) => expectError(p, 'binary_file'),
  },
];

const listDirCases: RuleCase[] = [
  {
    rule: 'list dir is recursive, with paths relative to root, and skips .git',
    tool: 'aider_list_dir_tool',
    setup: (r) => {
      put(r, 'a.txt', '');
      put(r, 'src/b.ts', '');
      put(r, 'src/deep/c.ts', '');
      put(r, '.git/HEAD', 'ref');
      put(r, '.git/objects/x', '');
    },
    args: () => ({ path: 'src' }),
    check: (p) => {
      expect(p).toMatchObject({
        kind: 'listing',
        path: 'src',
        text: 'src/b.ts\nsrc/deep/c.ts',
        entries: 2,
        total: 2,
        truncated: false,
      });
    },
  },
  {
    rule: 'list dir honours .gitignore files at every level, negations included, and skips .git',
    tool: 'aider_list_dir_tool',
    setup: (r) => {
      put(r, '.gitignore', 'node_modules/\n*.log\n!keep.log\n');
      put(r, 'node_modules/x/index.js', '');
      put(r, 'app.log', '');
      put(r, 'keep.log', '');
      put(r, 'src/.gitignore', 'generated.ts\n');
      put(r, 'src/generated.ts', '');
      put(r, 'src/main.ts', '');
      put(r, 'other/generated.ts', '');
      put(r, '.git/config', '');
    },
    args: () => ({}),
    check: (p) =>
      expect(String(p.text).split('\n')).toEqual([
        '.gitignore',
        'keep.log',
        'other/generated.ts',
        'src/.gitignore',
        'src/main.ts',
      ]),
  },
  {
    rule: 'list dir stops at max_entries with a truncation note giving the total',
    tool: 'aider_list_dir_tool',
    setup: (r) => {
      for (let i = 0; i < 30; i++) put(r, `f${String(i).padStart(2, '0')}.txt`, '');
    },
    args: () => ({ max_entries: 10 }),
    check: (p) => {
      expect(p).toMatchObject({ entries: 10, total: 30, truncated: true });
      const text = String(p.text).split('\n');
      expect(text.slice(0, 10)).toEqual(
        Array.from({ length: 10 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`),
      );
      expect(text[10]).toMatch(
        /^\.\.\. \(truncated: showing 10 of 30 files, cut at max_entries 10/,
      );
    },
  },
  {
    rule: 'list dir output stays within 30,000 characters with a note',
    tool: 'aider_list_dir_tool',
    setup: (r) => {
      const dir = join(r, 'many');
      mkdirSync(dir);
      for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `${'n'.repeat(40)}-${i}.txt`), '');
    },
    args: () => ({ max_entries: 5000 }),
    check: (p) => {
      expect(String(p.text).length).toBeLessThanOrEqual(30_000 + 200);
      expect(p).toMatchObject({ total: 1500, truncated: true });
      expect(String(p.note)).toMatch(/30000-character limit/);
    },
  },
  {
    rule: 'list dir with a narrowed root lists relative to that root',
    tool: 'aider_list_dir_tool',
    setup: (r) => put(r, 'pkg/lib/x.ts', ''),
    args: () => ({ root: 'pkg' }),
    check: (p) => expect(p.text).toBe('lib/x.ts'),
  },
  {
    rule: 'list dir lists a symlinked directory as an entry without following it',
    tool: 'aider_list_dir_tool',
    setup: (r, o) => {
      writeFileSync(join(o, 'secret.txt'), 's');
      put(r, 'a.txt', '');
      symlinkSync(o, join(r, 'link'));
    },
    args: () => ({}),
    check: (p) => expect(p.text).toBe('a.txt\nlink'),
  },
  {
    rule: 'list dir on a file is not_a_directory',
    tool: 'aider_list_dir_tool',
    setup: (r) => put(r, 'a.txt', ''),
    args: () => ({ path: 'a.txt' }),
    check: (p) => expectError(p, 'not_a_directory', /read_file/),
  },
  {
    rule: 'list dir on a missing directory is not_found',
    tool: 'aider_list_dir_tool',
    args: () => ({ path: 'nope' }),
    check: (p) => expectError(p, 'not_found'),
  },
];

export const ruleCases: RuleCase[] = [
  ...readFileCases,
  ...editBlockCases,
  ...fileEditCases,
  ...listDirCases,
];

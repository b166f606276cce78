import { describe, expect, it } from 'vitest';
import { filenameFrom, parseEditBlocks } from '../../../electron/host/tools/edit-block-parser';

describe('parseEditBlocks', () => {
  it('reads the seed format: filename line, fence, SEARCH, divider, REPLACE', () => {
    const r = parseEditBlocks(
      'src/utils.py\n```text\n<<<<<<< SEARCH\ndef old_function():\n    return 1\n=======\ndef new_function():\n    return 2\n>>>>>>> REPLACE\n```\n',
    );
    expect(r.errors).toEqual([]);
    expect(r.blocks).toEqual([
      {
        index: 1,
        file: 'src/utils.py',
        line: 3,
        search: 'def old_function():\n    return 1\n',
        replace: 'def new_function():\n    return 2\n',
      },
    ]);
  });

  it('keeps fences and markers-like text inside a block as content (editing Markdown)', () => {
    const r = parseEditBlocks(
      'README.md\n````\n<<<<<<< SEARCH\n```js\nold()\n```\n=======\n```js\nnew()\n```\n>>>>>>> REPLACE\n````\n',
    );
    expect(r.blocks[0]).toMatchObject({
      search: '```js\nold()\n```\n',
      replace: '```js\nnew()\n```\n',
    });
  });

  it('an empty SEARCH or REPLACE section is the empty string', () => {
    const r = parseEditBlocks('a.txt\n```\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n```');
    expect(r.blocks[0]).toMatchObject({ search: '', replace: '' });
  });

  it('reports a SEARCH without divider and a stray REPLACE, each with its line', () => {
    expect(parseEditBlocks('a.txt\n```\n<<<<<<< SEARCH\nx\n```\n').errors).toEqual([
      'block 1 (line 3): <<<<<<< SEARCH has no ======= divider after it',
    ]);
    expect(parseEditBlocks('Some prose.\n\n>>>>>>> REPLACE\n').errors).toEqual([
      'line 3: >>>>>>> REPLACE without a <<<<<<< SEARCH before it',
    ]);
  });

  it('a block missing its divider stops at the next SEARCH marker: the next block is not swallowed', () => {
    const r = parseEditBlocks(
      'a.txt\n```\n<<<<<<< SEARCH\nold a\n```\nb.txt\n```\n<<<<<<< SEARCH\nold b\n=======\nnew b\n>>>>>>> REPLACE\n```\n',
    );
    expect(r.errors).toEqual(['block 1 (line 3): <<<<<<< SEARCH has no ======= divider after it']);
    // (The whole edit is refused for the error; what matters is that block 1 ended at the marker.)
    expect(r.blocks).toMatchObject([{ index: 2, line: 8, search: 'old b\n', replace: 'new b\n' }]);
  });

  it('a block missing its REPLACE marker stops at the next SEARCH marker or divider', () => {
    const r = parseEditBlocks(
      'a.txt\n```\n<<<<<<< SEARCH\nold a\n=======\nnew a\n```\nb.txt\n```\n<<<<<<< SEARCH\nold b\n=======\nnew b\n>>>>>>> REPLACE\n```\n',
    );
    expect(r.errors).toEqual(['block 1 (line 3): ======= has no >>>>>>> REPLACE after it']);
    expect(r.blocks).toMatchObject([{ index: 2, line: 10, search: 'old b\n', replace: 'new b\n' }]);
    expect(
      parseEditBlocks(
        'a.txt\n```\n<<<<<<< SEARCH\nx\n=======\ny\n=======\nz\n>>>>>>> REPLACE\n```\n',
      ).errors,
    ).toEqual(['block 1 (line 3): ======= has no >>>>>>> REPLACE after it']);
  });

  it('finds shell code blocks but not fenced edits of shell scripts or other code', () => {
    const r = parseEditBlocks(
      '```sh\nnpm test\n```\n\n```python\nprint(1)\n```\nrun.sh\n```bash\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n',
    );
    expect(r.shellBlocks).toEqual([1]);
    expect(r.blocks).toHaveLength(1);
  });

  it('cleans filename decoration and refuses prose as a filename', () => {
    expect(filenameFrom('`src/a.ts`')).toBe('src/a.ts');
    expect(filenameFrom('**src/a.ts**:')).toBe('src/a.ts');
    expect(filenameFrom('# Makefile')).toBe('Makefile');
    expect(filenameFrom('docs/My Notes.md')).toBe('docs/My Notes.md');
    expect(filenameFrom('Here is the change:')).toBeNull();
    expect(filenameFrom('I changed utils.py as follows:')).toBeNull();
    expect(filenameFrom('Change:')).toBeNull();
    expect(filenameFrom('```')).toBeNull();
  });
});

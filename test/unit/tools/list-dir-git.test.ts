import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filePath, walk, type DirNode } from '../../../electron/host/tools/list-dir';
import { tempDir } from '../../helpers/temp';

// list_dir lists what git would call the project's files: on random trees with random .gitignore
// files (the root's and nested ones, names and paths, negations, globs, comments), its listing
// equals `git ls-files --others --exclude-standard` in a repository with nothing committed, which
// lists every file git does not ignore. Real git is the oracle.

// Names with glob characters check that a nested file's patterns are rebased literally.
const NAMES = ['a', 'b', 'build', 'gen', 'keep.log', 'x.log', 'main.ts', 'c', 'w[1]', 's*r', '!n'];
const PATTERNS = [
  '*.log',
  '!keep.log',
  'build/',
  '/build',
  'b',
  '!b/',
  'gen',
  'a/b',
  '/a/*.ts',
  '**/gen/',
  'c/main.ts',
  '*/c',
  'x*',
  '!x.log',
  '# a comment',
  '',
];

type Tree = { [name: string]: Tree | null };

const tree: fc.Memo<Tree> = fc.memo((depth) =>
  fc.dictionary(
    fc.constantFrom(...NAMES),
    depth <= 1 ? fc.constant(null) : fc.option(tree(depth - 1), { nil: null, freq: 2 }),
    { maxKeys: 5 },
  ),
);
const ignoreFile = fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 5 });

/** Writes the tree; each directory gets a .gitignore where `rules` has one left for it. */
function write(dir: string, t: Tree, rules: string[][]): void {
  const own = rules.shift();
  if (own) writeFileSync(join(dir, '.gitignore'), own.join('\n') + '\n');
  for (const [name, sub] of Object.entries(t)) {
    if (sub === null) writeFileSync(join(dir, name), '');
    else {
      mkdirSync(join(dir, name));
      write(join(dir, name), sub, rules);
    }
  }
}

function files(node: DirNode): string[] {
  return [...node.files.map((name) => filePath(node, name)), ...node.subdirs.flatMap(files)];
}

describe('list_dir against git', () => {
  it('lists exactly the files git does not ignore', async () => {
    await fc.assert(
      fc.asyncProperty(
        tree(4),
        fc.array(fc.option(ignoreFile, { nil: undefined, freq: 2 }), { maxLength: 6 }),
        async (t, rules) => {
          const tmp = tempDir('mewbo-list-git-');
          try {
            const root = join(tmp.dir, 'p');
            mkdirSync(root);
            execFileSync('git', ['init', '-q'], { cwd: root });
            write(
              root,
              t,
              rules.map((r) => r ?? []),
            );
            const expected = execFileSync('git', ['ls-files', '--others', '--exclude-standard'], {
              cwd: root,
              encoding: 'utf8',
            })
              .split('\n')
              .filter(Boolean)
              .sort();
            const walked = await walk(root, root, new AbortController().signal);
            expect(files(walked.tree).sort()).toEqual(expected);
            expect(walked.total).toBe(expected.length);
          } finally {
            tmp.cleanup();
          }
        },
      ),
      {
        numRuns: 300,
        // A deeper `!keep.log` re-includes a directory the root's `*.log` excludes; asked with the
        // root's rules alone, the file inside it was called ignored (found by a CI run's seed).
        examples: [[{ a: { 'keep.log': {} } }, [['*.log', '*/c'], ['!keep.log'], undefined]]],
      },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../electron/host/rules/bash-analysis';
import { BashParser } from '../../../electron/host/rules/bash-parser';
import type { WordValue } from '../../../electron/host/rules/bash-words';

// The words bash passes to a program, as the rules read them from the syntax tree: quotes and
// escapes removed, null for a word only known at run time.

const parser = await BashParser.load();
/** The words of the one command `line` holds (null: computed at run time). */
const words = (line: string): WordValue[] => {
  const a = analyzeBash(parser, line);
  expect(a.commands, line).toHaveLength(1);
  return a.commands[0]!.words;
};

describe('quote removal', () => {
  it.each<[string, WordValue[]]>([
    ['x a\\ b', ['x', 'a b']],
    ['x a\\\tb c', ['x', 'a\tb', 'c']],
    ['x a\tb', ['x', 'a', 'b']],
    ['x \\\\a', ['x', '\\a']],
    ["x 'a\\b'", ['x', 'a\\b']],
    ["x 'a''b'", ['x', 'ab']],
    ['x "a\\qb"', ['x', 'a\\qb']],
    ['x "a\\\\b"', ['x', 'a\\b']],
    ['x "a\\`b"', ['x', 'a`b']],
    ['x "a\\\nb"', ['x', 'ab']],
    ['x "a\nb"', ['x', 'a\nb']],
    ['x "a b"c', ['x', 'a bc']],
    ['x ""', ['x', '']],
    ["x ''", ['x', '']],
    ['x a""', ['x', 'a']],
    ['x=1 y', ['y']],
  ])('%j is %j', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });

  it('only the unquoted characters of a word glob, whichever part of the word they are in', () => {
    expect(words('a"*" x')).toEqual(['a*', 'x']);
    expect(words('x a"*" a\\* a\'?\' "b"\\[a]')).toEqual(['x', 'a*', 'a*', 'a?', 'b[a]']);
  });

  it('a backslash and newline join the two parts of a word; a blank after it still ends one', () => {
    expect(words('x a\\\nb')).toEqual(['x', 'ab']);
    expect(words('x a \\\nb')).toEqual(['x', 'a', 'b']);
  });
});

describe('words computed at run time', () => {
  it.each<[string, WordValue[]]>([
    ['x "$a"', ['x', null]],
    ['x "a${b}"', ['x', null]],
    ['x $"a"', ['x', null]],
    ["x $'a'", ['x', null]],
    ['x a$b', ['x', null]],
    ['x a?', ['x', null]],
    ['x a*b', ['x', null]],
    ['x [ab]', ['x', null]],
    ['x a[b]c', ['x', null]],
    ['x {a,b}', ['x', null]],
    ['x {1..3}', ['x', null]],
    ['x {x}{a,b}', ['x', null]],
    ['x {a}}{,b}', ['x', null]],
  ])('%j is %j', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });

  it.each<[string, WordValue[]]>([
    ['x "*" "?" \'[a]\' \\*', ['x', '*', '?', '[a]', '*']],
    ['x a[b', ['x', 'a[b']],
    ['x ]a[', ['x', ']a[']],
    ['x "["a]', ['x', '[a]']],
    ['x {} {x} {a', ['x', '{}', '{x}', '{a']],
    ['x }{a,b', ['x', '}{a,b']],
    ['x "{a,b}" {a.b}', ['x', '{a,b}', '{a.b}']],
    ['x {a"}"', ['x', '{a}']],
    ['x ~/a', ['x', '~/a']],
    ['x a][', ['x', 'a][']],
    ['x {x}a,b a,{x} {x}..', ['x', '{x}a,b', 'a,{x}', '{x}..']],
  ])('%j stays as written: %j', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });

  it('a computed word between literal ones ends where bash splits', () => {
    expect(words('x a $b c')).toEqual(['x', 'a', null, 'c']);
    expect(words('x $b"c"d e')).toEqual(['x', null, 'e']);
  });
});

/** Characters words are made of, quoting-relevant ones included. */
const CHARS = [...'abz09_-./:,=@%+~ \t\n\\\'"$`*?[]{}()<>;&|#!'];
/** Characters that stay themselves unquoted, in any position after the first of a word. */
const PLAIN = [...'abz09_-./:,@%+'];

/** One part of a word, as written in bash, and the text bash makes of it. */
const part = fc.oneof(
  fc
    .array(fc.constantFrom(...PLAIN), { minLength: 1, maxLength: 6 })
    .map((cs) => ({ src: cs.join(''), text: cs.join('') })),
  fc
    .array(fc.constantFrom(...CHARS.filter((c) => c !== "'")), { maxLength: 6 })
    .map((cs) => ({ src: `'${cs.join('')}'`, text: cs.join('') })),
  fc
    .array(fc.constantFrom(...CHARS.filter((c) => c !== '$' && c !== '`')), { maxLength: 6 })
    .map((cs) => ({
      src: `"${cs.map((c) => ('"\\'.includes(c) ? `\\${c}` : c)).join('')}"`,
      text: cs.join(''),
    })),
  // Escaped blanks are left to the examples above: at a command's first word's start or after its
  // last word tree-sitter reads `\<blank>` as white space, and commandWords (bash-analysis.ts)
  // counts such a word as computed (bash-analysis.test.ts). `\$` is left out too: before a quote the grammar reads
  // `$"` as a translated string, which makes the word computed (stricter than bash, not looser).
  fc
    .array(fc.constantFrom(...CHARS.filter((c) => !'\n \t$'.includes(c))), {
      minLength: 1,
      maxLength: 6,
    })
    .map((cs) => ({ src: cs.map((c) => `\\${c}`).join(''), text: cs.join('') })),
);

describe('property: any word written with quotes and escapes is read back as bash reads it', () => {
  it('literal words of mixed quoting round-trip exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(part, { minLength: 1, maxLength: 4 }), { maxLength: 4 }),
        (ws) => {
          const line = ['x', ...ws.map((w) => w.map((p) => p.src).join(''))].join(' ');
          expect(words(line), line).toEqual(['x', ...ws.map((w) => w.map((p) => p.text).join(''))]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an unquoted * or ? anywhere in a word makes it computed, and only that word', () => {
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 3 }),
        fc.array(part, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('*', '?'),
        (before, after, glob) => {
          const src = [...before, { src: glob }, ...after].map((p) => p.src).join('');
          expect(words(`x ${src} y`), src).toEqual(['x', null, 'y']);
        },
      ),
      { numRuns: 100 },
    );
  });
});

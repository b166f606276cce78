import { describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../electron/host/rules/bash-analysis';
import {
  isCodeVariable,
  literalArithmetic,
  plainName,
  testRunsData,
  type TestWord,
} from '../../../electron/host/rules/bash-data-code';
import { BashParser } from '../../../electron/host/rules/bash-parser';

// Where bash runs code held in data (a value read as arithmetic, as a variable name or as a
// prompt), read from the syntax tree: each such place makes the command unjudged with a reason,
// and a variable bash runs code from, once set, makes it run anything. Literal arithmetic and
// plain names are judged as usual.

const parser = await BashParser.load();
const unjudged = (cmd: string): string[] => analyzeBash(parser, cmd).unjudged;
/** Whether the command may run anything (a command of computed words, `? ...`). */
const runsAnything = (cmd: string): boolean =>
  analyzeBash(parser, cmd).commands.some((c) => c.words.length === 1 && c.words[0] === null);

const arithmetic = (what: string) =>
  `${what} evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts`;
const asName = (what: string) =>
  `${what} uses a value as a variable name, whose subscript bash evaluates, running its command substitutions`;

describe('the variables bash runs code from', () => {
  it.each([
    'BASH_FUNC_f%%',
    'BASH_ENV',
    'ENV',
    'PROMPT_COMMAND',
    'PS0',
    'PS1',
    'PS4',
    'SHELLOPTS',
    'BASHOPTS',
    'PS1[0]',
    'PROMPT_COMMAND[1',
  ])('%s is one', (name) => {
    expect(isCodeVariable(name)).toBe(true);
  });

  it.each(['PS2', 'MYENV', 'ENVX', 'XBASH_ENV', 'BASH_FUNC', 'x[PS1]', 'HOME', ''])(
    '%j is not',
    (name) => {
      expect(isCodeVariable(name)).toBe(false);
    },
  );

  it('setting one in an expansion or as a loop variable may run anything; another variable does not', () => {
    expect(runsAnything('echo ${PS1:=x}')).toBe(true);
    expect(runsAnything('echo ${BASH_ENV=x}')).toBe(true);
    expect(runsAnything('for PROMPT_COMMAND in x; do :; done')).toBe(true);
    for (const cmd of ['echo ${Y:=x} ${PS1:-x} ${PS1}', 'for i in x; do :; done']) {
      expect(runsAnything(cmd), cmd).toBe(false);
      expect(unjudged(cmd), cmd).toEqual([]);
    }
  });
});

describe('plain names and literal arithmetic', () => {
  it('a plain name is an identifier with a literal index at most', () => {
    for (const n of ['a', '_a1', 'A_9', 'a[0]', 'a[10]']) expect(plainName(n), n).toBe(true);
    for (const n of ['1a', 'a[i]', 'a[0]x', 'a[]', 'xa[0', 'a b', 'a-b', '', null, undefined])
      expect(plainName(n), String(n)).toBe(false);
  });

  it('literal arithmetic holds numbers and operators only', () => {
    for (const t of [
      '1+2',
      '0x1F * 2',
      '0XaB',
      '2#101',
      '64#zZ@_',
      '(1<<4)%3',
      '1 ? 2 : 3',
      '!1 && ~2 || 3^4',
      '12 + 345',
      '10 - 2 / 1 >= 3, 4 == 4',
      '',
    ])
      expect(literalArithmetic(t), t).toBe(true);
    for (const t of ['x', '1+x', '1a', '0xZ', 'a#1', '2#', '$x', '1;2', null, undefined])
      expect(literalArithmetic(t), String(t)).toBe(false);
  });
});

describe('test and [ read -v NAME', () => {
  const w = (value: string | null, splits = false): TestWord => ({ value, splits });

  it('-v with a name that is not plain, or an unquoted expansion anywhere, is unjudged', () => {
    expect(testRunsData([w('-v'), w('a[$(x)]')])).toEqual([
      { kind: 'unjudged', why: asName('test -v') },
    ]);
    expect(testRunsData([w('-v'), w(null)])).toEqual([
      { kind: 'unjudged', why: asName('test -v') },
    ]);
    expect(testRunsData([w('-f'), w(null, true)])).toEqual([
      {
        kind: 'unjudged',
        why: asName('test with an unquoted expansion, which may become -v NAME,'),
      },
    ]);
  });

  it('a quoted computed word may be -v when a computed word or a subscript follows', () => {
    const why = asName('test with a computed word where -v may be,');
    expect(testRunsData([w(null), w(null)])).toEqual([{ kind: 'unjudged', why }]);
    expect(testRunsData([w('x'), w(null), w('a[1]')])).toEqual([{ kind: 'unjudged', why }]);
  });

  it('a plain name after -v, -v last, or a computed word with nothing after it, are judged', () => {
    expect(testRunsData([w('-v'), w('name')])).toEqual([]);
    expect(testRunsData([w('-n'), w('-v')])).toEqual([]);
    expect(testRunsData([w(null)])).toEqual([]);
    expect(testRunsData([w(null), w('x')])).toEqual([]);
    expect(testRunsData([])).toEqual([]);
    // A word's `splits` is read only when it is computed (`command test` gives it to every word).
    expect(testRunsData([w('-f', true), w('x', true)])).toEqual([]);
  });

  it('numeric special parameters and quoted words never split; other unquoted expansions may', () => {
    for (const cmd of ['[ $# -eq 1 ]', '[ $? ]', '[ $$ ]', '[ $! ]', '[ ${#a} ]', '[ "$x" ]'])
      expect(unjudged(cmd), cmd).toEqual([]);
    // A numeric parameter beside another expansion is no longer the whole word: `[ $#$x ]` with
    // x='x -o -v a[$(cmd)]' runs cmd.
    for (const cmd of [
      '[ $x ]',
      '[ $@ ]',
      '[ ${x} = y ]',
      '[ a$x ]',
      'test $x',
      '[ $#$x ]',
      '[ $x$? ]',
      '[ ${#a}$x ]',
      '[ $x${#a} ]',
    ])
      expect(unjudged(cmd), cmd).toEqual([
        asName('test with an unquoted expansion, which may become -v NAME,'),
      ]);
  });

  it('the words inside [ ] nested expressions are read in order', () => {
    expect(unjudged('[ a = b -a -v "$x" ]')).toEqual([asName('test -v')]);
    expect(unjudged('[ -v x ] && [ -n "$x" ]')).toEqual([]);
    expect(unjudged('[ ( -v "$x" ) ]')).toEqual([asName('test -v')]);
    expect(unjudged('[ ! -v "$x" ] && [ "$x" = "(" ] && [ a != "$x" ]')).toEqual([
      asName('test -v'),
    ]);
  });

  it('test and [ named quoted or escaped are test and [ all the same', () => {
    for (const cmd of [
      "'test' -v 'a[$(x)]'",
      '\\test -v "$x"',
      '"[" -v "$x" ]',
      '\\[ -v a[$(x)] ]',
    ])
      expect(unjudged(cmd), cmd).toEqual([asName('test -v')]);
    for (const cmd of ['"[" -v x ]', "'test' a", 'tests -v "$x"'])
      expect(unjudged(cmd), cmd).toEqual([]);
  });

  it('a {var}> redirection is no argument of test', () => {
    expect(unjudged('test -v {fd}>/dev/null x')).toEqual([]);
  });
});

describe('arithmetic', () => {
  it.each([
    ['echo $((x))', '$((...))'],
    ['echo $((1 + x))', '$((...))'],
    ['(( x ))', '((...))'],
    ['(( 1 + (2 * x) ))', '((...))'],
    ['for ((i = 0; i < 3; i++)); do :; done', 'for ((...))'],
    ['for ((; x; )); do :; done', 'for ((...))'],
    ['echo "${a[i]}"', 'the subscript of a[i]'],
    ['a[i]=1', 'the subscript of a[i]'],
    ['a=([i]=1)', 'an array index [i]='],
    ['a=([i]+=1)', 'an array index [i]='],
    ['a=(x [0]=1 [j]=2)', 'an array index [i]='],
    ['echo "${s:x}"', '${name:offset:length}'],
    ['echo "${s:1:n}"', '${name:offset:length}'],
    ['echo "${s:(1+x)}"', '${name:offset:length}'],
    ['echo "${s::x}"', '${name:offset:length}'],
    ['exec {fd[i]}>/dev/null', '{fd[i]}>'],
    ['exec {abc[i]}>/dev/null', '{abc[i]}>'],
    ['a=([ij]=1)', 'an array index [i]='],
    ['a=([i][0]=1)', 'an array index [i]='],
    ['echo "${a[i@]}"', 'the subscript of a[i@]'],
    ['echo "${a[@i]}"', 'the subscript of a[@i]'],
    ['[[ x1 -eq 1 ]]', '[[ -eq ]]'],
    ['[[ 1x -eq 1 ]]', '[[ -eq ]]'],
    ['[[ x -eq 1 ]]', '[[ -eq ]]'],
    ['[[ 1 -ne $x ]]', '[[ -ne ]]'],
    ['[[ 1 -lt x ]]', '[[ -lt ]]'],
    ['[[ 1 -le x ]]', '[[ -le ]]'],
    ['[[ 1 -gt x ]]', '[[ -gt ]]'],
    ['[[ 1 -ge x ]]', '[[ -ge ]]'],
    ['[[ a == b && 1 -eq "$x" ]]', '[[ -eq ]]'],
    ['cat <<EOF\n$((x))\nEOF', '$((...))'],
  ])('%j is unjudged: %s evaluates a value as arithmetic', (cmd, what) => {
    expect(unjudged(cmd)).toEqual([arithmetic(what)]);
  });

  it.each([
    'echo $((1 + 2 * 3)) $((0x10)) $((2#101)) $(((1 << 4) % 3)) $((-1)) $((1 ? 2 : 3)) $((++1))',
    '(( 1 < 2 ))',
    '{ a; }',
    'for ((;;)); do a; done',
    'for ((;;)) { a; }',
    'for ((1; 1; 1)); do a; done',
    'echo ${a[0]} ${a[@]} ${a[*]} ${#a[@]}',
    'a[0]=1',
    'a=([0]=1 [12]+=2 x [y])',
    'echo ${s:1} ${s:1:2} ${s::2} ${s: -1} ${x:-d} ${x:+y} ${x#p} ${x/a/b}',
    'echo $( (a) )',
    '(( 1++ ))',
    'a=(x[i]=1)',
    'exec {fd}>/dev/null {g[0]}<x',
    'echo {fd}',
    'echo xa[i]y',
    '[[ 12 -eq 12 ]]',
    '[ ${#ab} ]',
    // `-v` alone is a word tested for being non-empty; the closing bracket is no name after it.
    '[ -v ]',
    '[[ 1 -eq 1 ]] && [[ "1" -ne -1 ]] && [[ a == b ]] && [[ -n $x ]] && [[ $x < y ]]',
  ])('%j is judged', (cmd) => {
    expect(unjudged(cmd)).toEqual([]);
  });

  it('a {var} word with no redirection operator after it is a word, not a variable', () => {
    const a = analyzeBash(parser, 'echo {fd} >x; echo {g}');
    expect(a.commands.map((c) => c.words)).toEqual([
      ['echo', '{fd}'],
      ['echo', '{g}'],
    ]);
    expect(analyzeBash(parser, 'echo {fd}>x').commands.map((c) => c.words)).toEqual([['echo']]);
    // Only the whole word, a name with any subscript in braces, is a variable.
    for (const cmd of ['echo {abc}>x', 'echo {a[12]}>x'])
      expect(
        analyzeBash(parser, cmd).commands.map((c) => c.words),
        cmd,
      ).toEqual([['echo']]);
    for (const [cmd, word] of [
      ['echo x{fd}>x', 'x{fd}'],
      ['echo {fd}x>x', '{fd}x'],
    ] as const)
      expect(
        analyzeBash(parser, cmd).commands.map((c) => c.words),
        cmd,
      ).toEqual([['echo', word]]);
  });
});

describe('values used as names and as prompts', () => {
  it.each([
    ['echo "${!x}"', asName('${!name}')],
    ['echo "${!a[0]}"', asName('${!name}')],
    ['echo "${!x:-y}"', asName('${!name}')],
    ['echo "${x@P}"', '${x@P} expands a value as a prompt, which runs its command substitutions'],
    ['[[ -v $x ]]', asName('[[ -v ]]')],
    ['[[ -v a[i] ]]', asName('[[ -v ]]')],
    ['[[ -v "a[i]" ]]', asName('[[ -v ]]')],
    ['[[ -n x && -v $y ]]', asName('[[ -v ]]')],
  ])('%j is unjudged: %s', (cmd, why) => {
    expect(unjudged(cmd)).toEqual([why]);
  });

  it.each([
    'echo ${!pre*} ${!pre@} ${!a[@]} ${!a[*]}',
    // `${!}` is `$!`; `${!#}` names a positional parameter.
    'echo ${!} ${!#}',
    'echo ${x@Q} ${x@U} ${x}',
    '[[ -v name ]] && [[ -v a[0] ]] && [[ -v "a" ]] && [[ -n a[i] ]]',
  ])('%j is judged', (cmd) => {
    expect(unjudged(cmd)).toEqual([]);
  });

  it('only a subscript of @ or * alone lists keys', () => {
    for (const sub of ['i@', '@i', 'i*', '*i'])
      expect(unjudged(`echo "\${!a[${sub}]}"`), sub).toEqual([
        asName('${!name}'),
        arithmetic(`the subscript of a[${sub}]`),
      ]);
  });
});

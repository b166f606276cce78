import { describe, expect, it } from 'vitest';
import { analyzeBash, type BashAnalysis } from '../../../electron/host/rules/bash-analysis';
import { BashParser } from '../../../electron/host/rules/bash-parser';

// What the rules judge in a shell command: every simple command bash will run, read with bash's
// grammar. A command is shown as its words joined by spaces, `?` for a word computed at run time,
// `...` for arguments only known at run time, and its assignments first, then `|`.

const parser = await BashParser.load();
const analyze = (cmd: string): BashAnalysis => analyzeBash(parser, cmd);
const show = (a: BashAnalysis): string[] =>
  a.commands.map((c) =>
    [
      ...c.assignments.map((x) => `${x.word ?? '?'} |`),
      ...c.words.map((w) => (w === null ? '?' : w)),
      ...(c.moreArgs ? ['...'] : []),
    ].join(' '),
  );
const commands = (cmd: string): string[] => {
  const a = analyze(cmd);
  expect(a.unjudged, cmd).toEqual([]);
  return show(a);
};

describe('bash analysis: where commands are', () => {
  it.each([
    ['a | b |& c', ['a', 'b', 'c']],
    ['a; b && c || d & e', ['a', 'b', 'c', 'd', 'e']],
    ['a\nb', ['a', 'b']],
    ['(a; b)', ['a', 'b']],
    ['{ a; b; }', ['a', 'b']],
    ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
    ['while a; do b; done; until c; do d; done', ['a', 'b', 'c', 'd']],
    ['for i in x y; do a $i; done', ['a ?']],
    ['for ((;;)); do b; done', ['b']],
    ['for ((;;)) { b; }', ['b']],
    ['select x in y; do a; done', ['a']],
    ['case $x in y) a;; *) b;; esac', ['a', 'b']],
    ['f() { a; }; g() ( b ); function h { c; }', ['a', 'b', 'c']],
    ['! a', ['a']],
    ['echo $(a) `b` "$(c)" "`d`"', ['a', 'b', 'c', 'd', 'echo ? ? ? ?']],
    ['echo $(a $(b))', ['b', 'a ?', 'echo ?']],
    ['X=$(a) b', ['a', '? | b']],
    ['cat <(a) >(b)', ['a', 'b', 'cat ? ?']],
    ['echo ${x:-$(a)}', ['a', 'echo ?']],
    ['cat > "$(a)"', ['a', 'cat']],
    ['cat <<EOF\n$(a) `b`\nEOF', ['cat', 'a', 'b']],
    ['cat <<EOF\n\\`a\\` `b`\nEOF', ['cat', 'b']],
    // A body with no $ in it, and backquotes on either side of an expansion.
    ['cat <<EOF\n`a` `b`\nEOF', ['cat', 'a', 'b']],
    ['cat <<-EOF\n\t`a $x` `b`\n\tEOF', ['cat', 'a ?', 'b']],
    ['cat <<EOF\n`r${x}m`\nEOF', ['cat', '?']],
    ['cat <<EOF\n${x:-`a`} $(b)\nEOF', ['cat', 'a', 'b']],
    ['cat 3<<EOF\nx\nEOF', ['cat']],
    // Backquotes inside ${...}, which the grammar leaves as text.
    ['echo ${x:-`a`} "${y:+`b`}" ${z:-${w:-`c`}}', ['a', 'b', 'c', 'echo ? ? ?']],
    ['x=${y:-`a`}', ['a', '? |']],
    ["echo ${x:-\\`a\\`} '`b`'", ['echo ? `b`']],
    ['export A=$(a); readonly B=$(b)', ['a', 'export ?', 'b', 'readonly ?']],
    ['cat <<EOF | b\nx\nEOF', ['cat', 'b']],
    ['cat <<< "$(a)"', ['cat', 'a']],
    ['[[ $(a) == x ]] && [ -f "$(b)" ]', ['a', 'b']],
    ['x=(1 $(a))', ['a', '? |']],
    // Arithmetic and tests run nothing themselves.
    ['(( 1 ? 2 : 3 )) && (( (1) + -2 )) && [[ ( a ) ]] && [[ ! -f x ]]', []],
  ])('%j runs %j', (cmd, expected) => {
    const got = commands(cmd);
    // Substitutions are judged where they are met; the order among them does not matter.
    expect([...got].sort()).toEqual([...expected].sort());
  });

  it('the arithmetic of a C-style for runs no command, its body does', () => {
    expect(show(analyze('for ((i = 0; i < 3; i++)); do b; done'))).toEqual(['b']);
  });

  it('backquotes inside ${...} are parsed as source a shell gets: one level deeper, a syntax error may run anything', () => {
    const evals = 'eval '.repeat(11);
    expect(commands(`echo \${x:-\`${evals}rm x\`}`)).toEqual(['rm x', 'echo ?']);
    expect(analyze(`echo \${x:-\`eval ${evals}rm x\`}`).unjudged).toEqual([
      'commands nest more than 12 levels deep',
    ]);
    const broken = analyze('echo ${x:-`rm (`}');
    expect(broken.unjudged).toEqual([]);
    expect(show(broken)).toContain('? ...');
  });

  it('a quoted here-document delimiter keeps its body as text', () => {
    expect(commands("cat <<'EOF'\n$(a)\nEOF")).toEqual(['cat']);
    expect(commands("cat <<'EOF'\n`a`\nEOF")).toEqual(['cat']);
    expect(commands('cat <<"EOF"\n`a` $(b)\nEOF')).toEqual(['cat']);
    expect(commands('cat <<\\EOF\n`a`\nEOF')).toEqual(['cat']);
  });

  it('a # starts a comment only at the start of a word', () => {
    expect(commands('npm test a#b; rm x')).toEqual(['npm test a#b', 'rm x']);
    expect(commands('npm test a #b; rm x')).toEqual(['npm test a']);
    expect(commands('echo "#"; rm x')).toEqual(['echo #', 'rm x']);
  });
});

describe('bash analysis: words as bash passes them', () => {
  it.each([
    ['\\rm x', 'rm x'],
    ['r""m x', 'rm x'],
    ["'rm' x", 'rm x'],
    ['"r"m x', 'rm x'],
    ['echo "a"b\'c\'\\ d', 'echo abc d'],
    ['rm\\\nx y', 'rmx y'],
    ['echo a \\\n b', 'echo a b'],
    ['echo "a\\"b\\$c\\q"', 'echo a"b$c\\q'],
    ["echo 'a'\\''b'", "echo a'b"],
    ['echo ~/x "é" é', 'echo ~/x é é'],
    ['echo "*" \\* {} {x} a,b', 'echo * * {} {x} a,b'],
    ['unsetenv x', 'unsetenv x'],
    ['exec {fd}>/dev/null', 'exec'],
  ])('%j is %j', (cmd, words) => {
    expect(commands(cmd)).toEqual([words]);
  });

  it.each([
    ['$X y', '? y'],
    ['${X} y', '? y'],
    ['$(a) y', 'a'],
    ['a$X y', '? y'],
    ['* y', '? y'],
    ['r? y', '? y'],
    ['echo [ab]', 'echo ?'],
    ['x{rm,x} y', '? y'],
    ['x{1..3} y', '? y'],
    ["$'rm' y", '? y'],
    ['$"rm" y', '? y'],
    ['echo $((1+2))', 'echo ?'],
    ["echo $'b' {1..2}", 'echo ? ?'],
  ])('%j has a word computed at run time', (cmd, shown) => {
    expect(commands(cmd)).toContain(shown);
  });

  it.each([
    ['x \\ ', 'x ?'],
    ['x \\\t', 'x ?'],
    ['x \\  >f', 'x ?'],
    ['echo a; x \\ ; y', 'x ?'],
    ['\\\trm x', '? x'],
    // Blanks before the backslash, however many, leave the escaped one a word.
    ['x  \\  >f', 'x ?'],
    ['x \t \\  >f', 'x ?'],
  ])(
    '%j: an escaped blank the grammar reads as white space (after the last word, before the first) counts as a computed word, as bash makes it a word',
    (cmd, shown) => {
      expect(show(analyze(cmd))).toContain(shown);
    },
  );

  it('a line continuation before the first word is no escaped blank: the program is read as written', () => {
    expect(commands('\\\nrm x')).toEqual(['rm x']);
    expect(commands('a; \\\nrm x')).toEqual(['a', 'rm x']);
  });

  it('a comment the grammar puts inside a command (after an empty assignment) is no word of it', () => {
    expect(analyze('A=1 B= # c\nrm x').commands.map((c) => c.words)).toEqual([['rm', 'x']]);
  });

  it('an escaped blank in a later command leaves the commands before it as they are', () => {
    expect(commands('echo a; x \\ ; y')).toEqual(['echo a', 'x ?', 'y']);
  });

  it('an escaped blank before a here-string is a computed word, and the words after it stay apart', () => {
    expect(commands('x \\  <<< a')).toEqual(['x ?']);
    expect(commands('x \\  <<< a y')).toEqual(['x ? y']);
  });

  it('a subshell where coproc expects a word is judged as commands', () => {
    expect(show(analyze('coproc (rm x)'))).toContain('rm x');
  });

  it('>& to a word that only ends in a digit writes a file', () => {
    expect(analyze('a >&x1').writes).toEqual(['x1']);
  });

  it('an unquoted * is a glob, computed at run time', () => {
    expect(commands('echo *')).toEqual(['echo ?']);
  });

  it.each([
    ['x \\ a', 'x  a'],
    ['x a\\ b', 'x a b'],
    ['x \\\\ ', 'x \\'],
    ['x \\\\\trm', 'x \\ rm'],
  ])(
    '%j: escaped blanks inside, and escaped backslashes before a blank, read as bash reads them',
    (cmd, shown) => {
      expect(commands(cmd)).toEqual([shown]);
    },
  );

  it('keeps assignments before a command apart from its words', () => {
    // The blank after an assignment's escaped backslash is not escaped.
    expect(commands('A=\\\\ rm x')).toEqual(['A=\\ | rm x']);
    expect(commands('FOO=1 BAR="a b" rm x')).toEqual(['FOO=1 | BAR=a b | rm x']);
    expect(commands('FOO=$X rm')).toEqual(['? | rm']);
    expect(commands('X=1; Y=2 Z=3')).toEqual(['X=1 |', 'Y=2 | Z=3 |']);
    expect(commands('export A=1 B')).toEqual(['export A=1 B']);
  });

  it('a redirection that writes a file is recorded; /dev/null and what >& copies or closes are not', () => {
    expect(analyze('a > out 2>>log &> both').writes).toEqual(['out', 'log', 'both']);
    expect(analyze('a >/dev/null 2>&1 <in >&- >|x').writes).toEqual(['x']);
    expect(analyze('a > "$f"').writes).toEqual([null]);
    // `> 1` and `> -` write files named 1 and -: only `>&` reads a number or - as a descriptor.
    expect(analyze('a > 1 > - &>2 >>3 &>>4 >|5 >&x >&1x').writes).toEqual([
      '1',
      '-',
      '2',
      '3',
      '4',
      '5',
      'x',
      '1x',
    ]);
    expect(analyze('a >&12 >& - >/dev/null &>/dev/null').writes).toEqual([]);
    expect(analyze('a &>>f >x/dev/null 2>/dev/nullx 2>1x >&12').writes).toEqual([
      'f',
      'x/dev/null',
      '/dev/nullx',
      '1x',
    ]);
  });
});

describe('bash analysis: commands that run commands', () => {
  it.each([
    ['command rm x', ['rm x']],
    ['command -p rm x', ['rm x']],
    ['command -v rm', ['command -v rm']],
    ['builtin cd x', ['cd x']],
    ['exec -a name rm x', ['rm x']],
    ['time -p rm x', ['rm x']],
    ['nice -n 5 rm x', ['nice -n 5 rm x', 'rm x']],
    ['nice -5 rm x', ['nice -5 rm x', 'rm x']],
    ['nohup rm x', ['nohup rm x', 'rm x']],
    ['timeout -s KILL --kill-after=1 10 rm x', ['timeout -s KILL --kill-after=1 10 rm x', 'rm x']],
    ['stdbuf -o0 -eL rm x', ['stdbuf -o0 -eL rm x', 'rm x']],
    ['setsid -f rm x', ['setsid -f rm x', 'rm x']],
    ['env -i -u HOME A=1 rm x', ['env -i -u HOME A=1 rm x', 'A=1 | rm x']],
    ['env', ['env']],
    ['sudo -u root -E A=1 rm x', ['sudo -u root -E A=1 rm x', 'A=1 | rm x']],
    ['sudo -e file', ['sudo -e file']],
    ['doas -u root rm x', ['doas -u root rm x', 'rm x']],
    ['busybox rm x', ['busybox rm x', 'rm x']],
    ['xargs rm', ['xargs rm', 'rm ...']],
    ['xargs -0 -n 1 rm -f', ['xargs -0 -n 1 rm -f', 'rm -f ...']],
    ['xargs -I {} cp {} dir', ['xargs -I {} cp {} dir', 'cp ? dir']],
    ['xargs', ['xargs', 'echo ...']],
    [
      'find . -name x -exec rm {} \\; -execdir mv y {} +',
      ['find . -name x -exec rm {} ; -execdir mv y {} +', 'rm ?', 'mv y ?'],
    ],
    ['coproc rm x', ['rm x']],
    [
      'nice timeout 5 env rm x',
      ['nice timeout 5 env rm x', 'timeout 5 env rm x', 'env rm x', 'rm x'],
    ],
    ['/usr/bin/env rm x', ['/usr/bin/env rm x', 'rm x']],
    ['git push', ['git push']],
    ['git -C d push -f', ['git -C d push -f', 'git push -f']],
    [
      'git --git-dir=x --work-tree y -c a.b=c --no-pager push',
      ['git --git-dir=x --work-tree y -c a.b=c --no-pager push', 'git push'],
    ],
    ['git -c color.ui=never diff', ['git -c color.ui=never diff', 'git diff']],
    ['git --exec-path', ['git --exec-path', 'git']],
    ['git --frobnicate x push', ['git --frobnicate x push', 'git x push', 'git push']],
  ])('%j runs %j', (cmd, expected) => {
    expect(commands(cmd)).toEqual(expected);
  });

  it.each([
    ["sh -c 'rm x'", ['sh -c rm x', 'rm x']],
    ['bash -xc "rm x; ls"', ['bash -xc rm x; ls', 'rm x', 'ls']],
    ['bash -o pipefail -c "rm x"', ['bash -o pipefail -c rm x', 'rm x']],
    ['dash -c "rm x" name arg', ['dash -c rm x name arg', 'rm x']],
    ['zsh -c "rm x"', ['zsh -c rm x', 'rm x']],
    ['/bin/sh -c "sh -c \\"rm x\\""', ['/bin/sh -c sh -c "rm x"', 'sh -c rm x', 'rm x']],
    ['bash script.sh', ['bash script.sh']],
    ["eval 'rm x;' ls", ['rm x', 'ls']],
    ['trap "rm x" EXIT', ['trap rm x EXIT', 'rm x']],
    ["mapfile -C 'rm x' -c 1 arr", ['mapfile -C rm x -c 1 arr', 'rm x ?']],
  ])('%j parses its source again: %j', (cmd, expected) => {
    expect(commands(cmd)).toEqual(expected);
  });

  it.each([
    ['$X y'],
    ['eval "$X"'],
    ['sh -c "$X"'],
    ['echo rm | sh'],
    ['bash -s'],
    ['sh -c "rm (("'],
    ['env -S "rm x"'],
    ['env "$V" rm'],
    ['timeout --frobnicate 5 rm'],
    ['find $dirs -name x'],
    ['sudo -s'],
    ['BASH_ENV=./x.sh bash -c ls'],
    ["env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls"],
    ['coproc NAME { rm x; }'],
    ["git -c 'alias.x=!rm -rf ~' x"],
    ['git -C d -c alias.p=push p'],
    ['git --config-env=core.pager=P log'],
    ['git -c "$c" log'],
    ['/bin/r? x'],
    ['r*m x'],
    ['/bin/{r,}m x'],
    ['export PROMPT_COMMAND="rm x"'],
    ['PS1=x bash -i'],
    ['read BASH_ENV'],
    ['printf -v PS4 %s x'],
    ['for PS0 in x; do :; done'],
    [': ${ENV:=x}'],
    ['mapfile BASH_ENV'],
  ])('%j may run any program', (cmd) => {
    expect(analyze(cmd).commands.some((c) => c.words[0] === null)).toBe(true);
  });

  it('an alias value is parsed, with the words of a later command after it, and asks', () => {
    const a = analyze("alias ls='rm -rf'");
    expect(show(a)).toEqual(['alias ls=rm -rf', 'rm -rf ?']);
    expect(a.unjudged).toEqual([
      'alias makes a later command word run other text, which later commands do not show',
    ]);
  });

  it('assignments before a wrapper go with the command it runs', () => {
    expect(commands('FOO=1 nice rm x')).toEqual(['FOO=1 | nice rm x', 'FOO=1 | rm x']);
  });

  it('after time and coproc a command may start with assignments: both readings are judged', () => {
    expect(commands('time FOO=1 rm x')).toEqual(['FOO=1 rm x', 'FOO=1 | rm x']);
    expect(commands('coproc A=1 rm')).toEqual(['A=1 rm', 'A=1 | rm']);
  });

  it('a function body is judged as run, and the call as a command', () => {
    expect(commands('f() { rm x; }; f')).toEqual(['rm x', 'f']);
  });
});

describe('bash analysis: what it cannot judge', () => {
  it('a syntax error is unjudged, with where it is; the commands before it are still judged', () => {
    const a = analyze('rm x; echo )');
    expect(a.unjudged[0]).toMatch(/bash cannot parse it \(near "\)" at character 12\)/);
    expect(show(a)).toContain('rm x');
    expect(analyze('echo "unterminated').unjudged[0]).toMatch(
      /near ""unterminated" at character 6/,
    );
    expect(analyze('(rm x').unjudged[0]).toMatch(/"\)" missing at character 6/);
    expect(analyze('a; (rm x').unjudged[0]).toMatch(/"\)" missing at character 9/);
  });

  it('the reasons name only what cannot be judged', () => {
    expect(analyze('rm x; echo )').unjudged).toEqual([
      'bash cannot parse it (near ")" at character 12)',
    ]);
    expect(analyze('(( i++ ))').unjudged).toEqual([
      "((...)) evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts",
    ]);
    // The text near a syntax error is shown up to 40 characters.
    expect(analyze(`echo "${'a'.repeat(60)}`).unjudged).toEqual([
      `bash cannot parse it (near ""${'a'.repeat(39)}" at character 6)`,
    ]);
  });

  it('each reason is given once', () => {
    expect(analyze('alias a=x; alias b=y').unjudged).toEqual([
      'alias makes a later command word run other text, which later commands do not show',
    ]);
  });

  it('a subscript in a declared name is named both as arithmetic and as a name set from a value', () => {
    expect(analyze('declare a[$i]=1').unjudged).toEqual([
      "the subscript of a[$i] evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts",
      'declare assigns a variable named by a value, whose subscript bash evaluates, running its command substitutions',
    ]);
  });

  it('nesting up to the limit (12) is judged, one more level is not', () => {
    // Past the limit nothing is read, also where no command would have said so.
    expect(analyze(`${'eval '.repeat(13)}x=1`).unjudged).toEqual([
      'commands nest more than 12 levels deep',
    ]);
    expect(analyze(`${'eval '.repeat(12)}rm x`).unjudged).toEqual([]);
    expect(analyze(`${'eval '.repeat(13)}rm x`).unjudged).toEqual([
      'commands nest more than 12 levels deep',
    ]);
    expect(analyze(`${'nice '.repeat(12)}rm x`).unjudged).toEqual([]);
    expect(analyze(`${'nice '.repeat(13)}rm x`).unjudged).toEqual([
      'commands nest more than 12 levels deep',
    ]);
  });

  it('nesting deeper than the limit is unjudged', () => {
    expect(analyze(`${'eval '.repeat(20)}rm x`).unjudged[0]).toMatch(/nest more than \d+ levels/);
    expect(analyze(`${'eval '.repeat(5)}rm x`).unjudged).toEqual([]);
    let wrapped = 'rm x';
    for (let i = 0; i < 20; i++) wrapped = `nice ${wrapped}`;
    expect(analyze(wrapped).unjudged[0]).toMatch(/nest more than/);
  });

  it.each([['[r]m y'], ['x[r]m y'], ['{rm,x} y'], ['a 3<>x']])(
    '%j, which the grammar misreads, is unjudged',
    (cmd) => {
      expect(analyze(cmd).unjudged[0]).toMatch(/bash cannot parse it/);
    },
  );

  it.each([
    ['{r,}m x', ['? x']],
    ['{rm,x} y', ['? y']],
    ['a; {r,}m x', ['a', '? x']],
    ['echo | {r..s}m x', ['echo', '? x']],
  ])(
    '%j: a brace glued to the name (misread as a group) makes the name computed',
    (cmd, expected) => {
      expect(show(analyze(cmd))).toEqual(expected);
    },
  );

  it('a reserved word the grammar reads as a command name is unjudged, and what follows judged', () => {
    const a = analyze('! if find . -exec rm {} \\;; then echo x; fi');
    expect(a.unjudged).toEqual([
      'the grammar read the reserved word "if" as a command',
      'the grammar read the reserved word "then" as a command',
      'the grammar read the reserved word "fi" as a command',
    ]);
    expect(show(a)).toEqual(['find . -exec rm {} ;', 'rm ?', 'echo x']);
  });

  it('a command of 100,000 characters is judged, a longer one is not', () => {
    expect(commands(`echo ${'a'.repeat(100_000 - 5)}`)).toEqual([`echo ${'a'.repeat(99_995)}`]);
  });

  it('a command too long to read is unjudged', () => {
    expect(analyze(`echo ${'a'.repeat(100_001)}`).unjudged[0]).toMatch(/longer than/);
  });
});

describe('bash analysis: code bash runs from data', () => {
  // `x='a[$(cmd)]'` (or the same read from a file) runs cmd wherever bash reads x as arithmetic
  // or as a name: the command line never shows cmd, so the command cannot be judged.
  it.each([
    ['echo $((x))', /^\$\(\(\.\.\.\)\) evaluates a variable's value as arithmetic/],
    ['(( x ))', /^\(\(\.\.\.\)\) evaluates/],
    ['for ((i = x; i < 3; i++)); do :; done', /^for \(\(\.\.\.\)\) evaluates/],
    ['let y=x', /^let evaluates/],
    ['[[ $x -eq 1 ]]', /^\[\[ -eq \]\] evaluates/],
    ['[[ 1 -lt x ]]', /^\[\[ -lt \]\] evaluates/],
    ['[[ -v $x ]]', /^\[\[ -v \]\] uses a value as a variable name/],
    ['[ -v "$x" ]', /^test -v uses a value as a variable name/],
    ['test -v "a[$i]"', /^test -v uses/],
    ['[ -f $x ]', /^test with an unquoted expansion, which may become -v NAME/],
    ['command test -v "$x"', /^test -v uses/],
    ['declare -i y', /^declare -i makes the variable's values arithmetic or names/],
    ['f() { local -i y=$1; }', /^local -i makes/],
    ['declare -n r=$x', /^declare -n makes/],
    ['typeset -ix y', /^typeset -ix makes/],
    ['declare "$x"=1', /^declare with a name or option computed at run time/],
    ['printf -v "$n" %s 1', /^printf -v assigns a variable named by a value/],
    ['read "$n"', /^read of a word computed at run time, which may name a variable/],
    ['read -a "a[$i]"', /^read assigns a variable named by a value/],
    ['wait -p "$n" -n', /^wait -p assigns/],
    ['wait $pid', /^wait of a word computed at run time/],
    ['printf $x 1', /^printf of a word computed at run time/],
    ['unset "$n"', /^unset of a word computed at run time/],
    ["unset 'a[i]'", /^unset of a name computed at run time or with a subscript/],
    ['echo "${x@P}"', /^\$\{x@P\} expands a value as a prompt/],
    ['echo "${!x}"', /^\$\{!name\} uses a value as a variable name/],
    ['echo "${s:x}"', /^\$\{name:offset:length\} evaluates/],
    ['echo "${s:1:n}"', /^\$\{name:offset:length\} evaluates/],
    ['echo "${a[i]}"', /^the subscript of a\[i\] evaluates/],
    ['a=([i]=1)', /^an array index \[i\]= evaluates/],
    ['exec {fd[i]}>/dev/null', /^\{fd\[i\]\}> evaluates/],
    ['cat <<EOF\n$((x))\nEOF', /^\$\(\(\.\.\.\)\) evaluates/],
    ['source ./script', /^source runs the commands in \.\/script, which are not known/],
    ['. "$f"', /^source runs the commands in a file named at run time/],
    ["complete -C 'rm x' foo", /^complete -C \/ -W runs a command or expands a word list/],
    ["compgen -W '$(rm x)' y", /^compgen -C \/ -W runs/],
    ['complete -o default -W "$w" foo', /^complete -C \/ -W runs/],
    ['bind -x \'"\\C-t": rm x\'', /^bind -x runs a command when a key is pressed/],
    ['enable -f ./evil.so evil', /^enable -f loads a builtin from a shared object/],
    ['hash -p /bin/rm ls', /^hash -p makes a name run another program/],
    // An option glued to its argument, or to other options, is read as bash's getopt reads it.
    ['hash -rp/bin/rm ls', /^hash -p makes a name run another program/],
    ['enable -f./evil.so evil', /^enable -f loads a builtin/],
    ['bind -x\'"\\C-t": rm x\'', /^bind -x runs a command/],
    ["compgen -bW '$(rm x)' y", /^compgen -C \/ -W runs/],
    ['bind "$k"', /^bind -x runs/],
    ['complete "$o" foo', /^complete -C \/ -W runs/],
    // Every name is looked at, not only the first.
    ["declare 'a[$i]=1'", /^declare assigns a variable named by a value/],
    ["declare x 'a[$i]=1'", /^declare assigns a variable named by a value/],
    ["export 'a[i-1]=x'", /^export assigns a variable named by a value/],
    ["readonly 'a[$i]'", /^readonly assigns a variable named by a value/],
    ['let 1+2 x', /^let evaluates/],
    ["unset a 'b[$i]'", /^unset of a name computed at run time or with a subscript/],
    ["read x 'a[$i]'", /^read assigns a variable named by a value/],
    ['read -a', /^read assigns a variable named by a value/],
    ['printf -v', /^printf -v assigns a variable named by a value/],
    // An option the builtin does not have is named; one computed at run time may be the name.
    ['printf -e x', /^printf -e is not an option it knows/],
    ['unset -x a', /^unset -x is not an option it knows/],
    ['read -X', /^read -X is not an option it knows/],
    ['wait -x', /^wait -x is not an option it knows/],
    ['mapfile "$opt" arr', /^an option of mapfile is computed at run time/],
    ['mapfile -X arr', /^mapfile -X is not an option it knows/],
    // Through a wrapper `test` and `[` lose their quoting: every computed word may split.
    ['command [ -v "$x" ]', /^test -v uses a value as a variable name/],
    ["command [ -n x -a -v 'a[$(rm x)]' ]", /^test -v uses/],
    ['command test -f "$x"', /^test with an unquoted expansion, which may become -v NAME/],
  ])('%j cannot be judged: %s', (cmd, why) => {
    const a = analyze(cmd);
    expect(a.unjudged.length, cmd).toBeGreaterThan(0);
    expect(a.unjudged[0]).toMatch(why);
  });

  it.each([
    'echo $((1 + 2 * 3)) $((2#101)) $(((1 << 4) % 3))',
    '(( 1 < 2 ))',
    'for ((;;)); do break; done',
    'let 1+2 3',
    '[[ 1 -eq -1 ]] && [[ $x == y ]]',
    '[ "$x" = y ] && test -n "$x" && [ $# -eq 1 ] && test -v name',
    '[[ -v name ]] && [[ -v a[0] ]]',
    'declare x=1 && local -r y && export PATH=$PATH:/x && readonly z',
    'printf -v name %s 1 && printf %s "$x"',
    'read -r line && read -ra arr && mapfile -t lines',
    'wait && wait -n && wait -p pid',
    "unset a b 'a[0]' && unset -f 'weird[$x]'",
    'echo ${a[0]} ${a[@]} ${#a[*]} ${s:1:2} ${!pre*} ${!a[@]} ${x:-d}',
    'a=([0]=1 [1]=2)',
    'exec {fd}>/dev/null',
    'complete -F _f foo && bind -m emacs && enable -n echo && hash -r',
    // A flag's letter after a word's start is no flag: `-W` inside a function name, `x` in a keymap's.
    'complete -F my-Wrapper foo && bind -m emacs-ctlx && hash -t a-p',
    // export -n takes the export away and readonly -n does nothing: neither makes a nameref.
    'export -n x && readonly -n y',
    'command [ -v ] && command test x',
    'mapfile -t arr && readarray -t arr',
    // Without a file name source and . run nothing (bash: "filename argument required").
    'source; .',
  ])('%j is judged', (cmd) => {
    expect(analyze(cmd).unjudged, cmd).toEqual([]);
  });

  it.each([
    ['command declare -i y', 'declare -i y'],
    ['let y=x', 'let y=x'],
    ['printf -v "$n" %s 1', 'printf -v ? %s 1'],
    ['command unset "$n"', 'unset ?'],
    ['read "$n"', 'read ?'],
    ['source ./script', 'source ./script'],
    ["complete -C 'rm x' foo", 'complete -C rm x foo'],
    ['hash -p /bin/rm ls', 'hash -p /bin/rm ls'],
    ['command test -v "$x"', 'test -v ?'],
  ])('%j, unjudged, is still judged as the command it is too', (cmd, itself) => {
    const a = analyze(cmd);
    expect(a.unjudged.length, cmd).toBeGreaterThan(0);
    expect(show(a)).toEqual([itself]);
  });

  it('mapfile and readarray parse their callback; a computed callback may run anything', () => {
    expect(commands("readarray -C 'rm x' arr")).toEqual(['readarray -C rm x arr', 'rm x ?']);
    expect(commands('mapfile -t arr')).toEqual(['mapfile -t arr']);
    expect(show(analyze('mapfile -C "$cb" arr'))).toEqual(['mapfile -C ? arr', '? ...']);
    expect(show(analyze('mapfile -C'))).toEqual(['mapfile -C', '? ...']);
  });

  it('assigning a variable bash runs code from may run anything, also after an option the declaration stops at', () => {
    const a = analyze('declare -i BASH_ENV=./x');
    expect(show(a)).toEqual(['declare -i BASH_ENV=./x', '? ...']);
    expect(a.unjudged).toEqual([
      "declare -i makes the variable's values arithmetic or names, which runs the command substitutions in their subscripts",
    ]);
    expect(show(analyze('local -n PS1=x'))).toEqual(['local -n PS1=x', '? ...']);
  });

  it('a bare assignment of a variable bash runs code from may run anything', () => {
    expect(show(analyze('PS1=x'))).toEqual(['? ...', 'PS1=x |']);
    expect(show(analyze('x=1 BASH_ENV=./a'))).toEqual(['? ...', 'x=1 | BASH_ENV=./a |']);
  });

  it('a subscript in arithmetic is read as words: only the arithmetic is named', () => {
    expect(analyze('(( a[1] ))').unjudged).toEqual([
      "((...)) evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts",
    ]);
  });

  it('a name given to export or readonly that bash runs code from may run anything', () => {
    expect(show(analyze("export 'BASH_ENV=./x'"))).toEqual(['export BASH_ENV=./x', '? ...']);
    expect(show(analyze("readonly 'PROMPT_COMMAND=rm x'"))).toEqual([
      'readonly PROMPT_COMMAND=rm x',
      '? ...',
    ]);
  });
});

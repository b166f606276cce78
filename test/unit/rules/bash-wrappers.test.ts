import { describe, expect, it } from 'vitest';
import {
  options,
  wrapperFor,
  type Unwrapped,
  type Wrapper,
} from '../../../electron/host/rules/bash-wrappers';
import type { WordValue } from '../../../electron/host/rules/bash-words';

// The table of commands that run other commands, read word by word: what each wrapper runs, with
// which options it reads before its command, and when it may run anything. `?` stands for a word
// computed at run time (null), `...` for arguments only known at run time.

const wrapper = (name: string): Wrapper => {
  const w = wrapperFor(name);
  if (!w) throw new Error(`${name} is no wrapper`);
  return w;
};
const show = (u: Unwrapped): string => {
  if (u.kind === 'command')
    return [
      ...u.assignments.map((a) => `${a.name}:${a.word ?? '?'} |`),
      ...u.words.map((w) => w ?? '?'),
      ...(u.moreArgs ? ['...'] : []),
    ].join(' ');
  if (u.kind === 'source') return `source: ${u.text}`;
  return `${u.kind}: ${u.why}`;
};
/** What `name args...` runs, shown; a `?` word is computed at run time. */
const runs = (line: string): string[] => {
  const [name, ...args] = line.split(' ');
  const words: WordValue[] = args.map((a) => (a === '?' ? null : a));
  return wrapper(name!).unwrap(words).map(show);
};

describe("options() reads a wrapper's options as getopt would", () => {
  const spec = {
    flags: 'ab',
    withArg: 'c',
    attachedArg: 'i',
    long: { long: true, flag: false },
  };
  const read = (args: WordValue[], s: Parameters<typeof options>[2] = spec) => {
    const o = options('w', args, s);
    return o.ok ? { seen: Object.fromEntries(o.seen), rest: o.rest } : o.why;
  };

  it('clustered flags, an argument attached or in the next word, and the first operand ending them', () => {
    expect(read(['-ab', '-cX', 'cmd', '-a'])).toEqual({
      seen: { a: true, b: true, c: 'X' },
      rest: ['cmd', '-a'],
    });
    expect(read(['-ac', 'Y', 'cmd'])).toEqual({ seen: { a: true, c: 'Y' }, rest: ['cmd'] });
    expect(read(['-c'])).toEqual({ seen: { c: null }, rest: [] });
  });

  it('an attached-only argument never takes the next word', () => {
    expect(read(['-i{}', 'cmd'])).toEqual({ seen: { i: '{}' }, rest: ['cmd'] });
    expect(read(['-i', 'cmd'])).toEqual({ seen: { i: true }, rest: ['cmd'] });
    expect(read(['-ai', 'cmd'])).toEqual({ seen: { a: true, i: true }, rest: ['cmd'] });
  });

  it('long options with = or the next word, and long flags', () => {
    expect(read(['--long=v', 'cmd'])).toEqual({ seen: { long: 'v' }, rest: ['cmd'] });
    expect(read(['--long', 'v', 'cmd'])).toEqual({ seen: { long: 'v' }, rest: ['cmd'] });
    expect(read(['--long'])).toEqual({ seen: { long: null }, rest: [] });
    expect(read(['--flag', 'cmd'])).toEqual({ seen: { flag: true }, rest: ['cmd'] });
    expect(read(['--flag=x', 'cmd'])).toEqual({ seen: { flag: 'x' }, rest: ['cmd'] });
  });

  it('"--" ends the options and is not an operand; "-" is an operand', () => {
    expect(read(['-a', '--', '-b', 'x'])).toEqual({ seen: { a: true }, rest: ['-b', 'x'] });
    expect(read(['-', '-a'])).toEqual({ seen: {}, rest: ['-', '-a'] });
    expect(read([])).toEqual({ seen: {}, rest: [] });
  });

  it('an unknown option, or one computed at run time, fails naming it', () => {
    expect(read(['-a', '-z', 'cmd'])).toBe('w -z is not an option it knows');
    expect(read(['-az'])).toBe('w -z is not an option it knows');
    expect(read(['--nope', 'cmd'])).toBe('w --nope is not an option it knows');
    expect(read(['--nope=1'])).toBe('w --nope=1 is not an option it knows');
    expect(read(['-a', null, 'cmd'])).toBe('an option of w is computed at run time');
    expect(read(['-z'], {})).toBe('w -z is not an option it knows');
    expect(read(['--long'], {})).toBe('w --long is not an option it knows');
  });

  it("a number option (nice's old form) only where the spec allows it", () => {
    expect(read(['-10', 'cmd'], { numbers: true })).toEqual({ seen: { n: '10' }, rest: ['cmd'] });
    expect(read(['-10x'], { numbers: true, flags: '10x' })).toEqual({
      seen: { 1: true, 0: true, x: true },
      rest: [],
    });
    expect(read(['x-10'], { numbers: true })).toEqual({ seen: {}, rest: ['x-10'] });
    expect(read(['-x-1'], { numbers: true, flags: 'x' })).toBe('w -- is not an option it knows');
    expect(read(['-10', 'cmd'])).toBe('w -1 is not an option it knows');
  });
});

describe('wrapperFor', () => {
  it('finds a wrapper by the last path component of the program, and nothing else', () => {
    expect(wrapperFor('/usr/bin/env')).toBe(wrapperFor('env'));
    expect(wrapperFor('./sudo')).toBe(wrapperFor('sudo'));
    expect(wrapperFor('env')).toBeDefined();
    expect(wrapperFor('/usr/bin/rm')).toBeUndefined();
    expect(wrapperFor('env/rm')).toBeUndefined();
  });

  it("the shell's own syntax and the builtins that only pass a command on are transparent, programs are not", () => {
    for (const n of ['command', 'builtin', 'exec', 'time', 'eval', 'coproc', '!', 'if', '[['])
      expect(wrapper(n).transparent, n).toBe(true);
    for (const n of ['nice', 'nohup', 'timeout', 'stdbuf', 'setsid', 'busybox', 'env', 'xargs'])
      expect(wrapper(n).transparent, n).toBe(false);
    for (const n of ['find', 'sudo', 'doas', 'trap', 'alias', 'git', 'sh', 'bash', 'zsh'])
      expect(wrapper(n).transparent, n).toBe(false);
  });
});

describe('simple wrappers run the words after their options', () => {
  it.each([
    ['nice rm -rf x', ['rm -rf x']],
    ['nice -n 5 rm', ['rm']],
    ['nice -n5 rm', ['rm']],
    ['nice -10 rm', ['rm']],
    ['nice --adjustment 5 rm', ['rm']],
    ['nice --adjustment=5 rm', ['rm']],
    ['nohup rm x', ['rm x']],
    ['nohup', []],
    ['builtin cd x', ['cd x']],
    ['exec -a name -cl rm', ['rm']],
    ['busybox rm x', ['rm x']],
    ['timeout 5 rm x', ['rm x']],
    ['timeout -v -s KILL -k 1 5 rm', ['rm']],
    ['timeout --signal KILL --kill-after 1 5 rm', ['rm']],
    ['timeout --preserve-status --foreground --verbose 5 rm', ['rm']],
    ['timeout 5', []],
    ['stdbuf -i0 -o L -e 0 rm', ['rm']],
    ['stdbuf --input 0 --output L --error 0 rm', ['rm']],
    ['setsid -cfw rm', ['rm']],
    ['setsid --ctty --fork --wait rm', ['rm']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it.each(['builtin', 'exec', 'nohup', 'stdbuf', 'setsid', 'busybox'])(
    '%s names itself when it meets an option it does not know',
    (name) => {
      expect(runs(`${name} -z rm`)).toEqual([`anything: ${name} -z is not an option it knows`]);
    },
  );

  it.each([
    'timeout --preserve-status 5',
    'timeout --foreground 5',
    'setsid --ctty',
    'setsid --fork',
    'setsid --wait',
    'env --ignore-environment',
    'env --null',
    'env --debug',
    'env --default-signal',
    'env --ignore-signal',
    'env --block-signal',
    'env --list-signal-handling',
    'time --append',
    'time --verbose',
    'time --portability',
    'time --quiet',
    'sudo --askpass',
    'sudo --background',
    'sudo --bell',
    'sudo --preserve-env',
    'sudo --set-home',
    'sudo --help',
    'sudo --login',
    'sudo --shell',
    'sudo --remove-timestamp',
    'sudo --reset-timestamp',
    'sudo --non-interactive',
    'sudo --preserve-groups',
    'sudo --stdin',
  ])('%s takes no argument: the next word is the command', (line) => {
    expect(runs(`${line} rm`)).toEqual(['rm']);
  });

  it('an option it does not know may take the next word: it may run anything', () => {
    expect(runs('nice -x rm')).toEqual(['anything: nice -x is not an option it knows']);
    expect(runs('timeout --nope 5 rm')).toEqual([
      'anything: timeout --nope is not an option it knows',
    ]);
  });
});

describe('shells', () => {
  it.each([
    ['sh -c rm', ['source: rm']],
    ['bash -xc rm', ['source: rm']],
    ['dash -e -c rm x', ['source: rm']],
    ['zsh -c', []],
    ['ksh script', []],
    ['mksh -x script', []],
    ['ash -- -c', []],
    ['sh - -c', []],
    ['sh - -c rm', []],
    ['sh a-b', []],
    ['bash --norc -c rm', ['source: rm']],
    ['bash --rcfile f -c rm', ['source: rm']],
    ['bash --init-file -c rm', []],
    ['bash --rcfile -c rm', []],
    ['bash -o posix -c rm', ['source: rm']],
    ['bash -o -c rm', []],
    ['bash -O -c rm', []],
    ['bash -oO a -c rm', []],
    ['bash +c rm', []],
    ['bash +x -c rm', ['source: rm']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it('reading commands from the input, or computed ones, may run anything', () => {
    expect(runs('sh')).toEqual(['anything: sh reads commands from its input']);
    expect(runs('bash -x')).toEqual(['anything: bash reads commands from its input']);
    expect(runs('bash -s x')).toEqual(['anything: bash -s reads commands from its input']);
    expect(runs('bash +s')).toEqual(['anything: bash -s reads commands from its input']);
    expect(runs('sh -c -- ?')).toEqual([
      'anything: the commands given to sh -c are computed at run time',
    ]);
    expect(runs('sh ? -c x')).toEqual(['anything: an option of sh is computed at run time']);
  });
});

describe('xargs', () => {
  it('runs its command, or echo, with arguments from its input', () => {
    expect(runs('xargs rm -f')).toEqual(['rm -f ...']);
    expect(runs('xargs')).toEqual(['echo ...']);
    expect(runs('xargs -0 -n 1 -P 4 rm')).toEqual(['rm ...']);
  });

  it('with a replacement string, the words that hold it are computed and no words are added', () => {
    expect(runs('xargs -I {} mv {} dst/{}.bak x')).toEqual(['mv ? ? x']);
    expect(runs('xargs -I X mv X d')).toEqual(['mv ? d']);
    expect(runs('xargs -i mv {} d')).toEqual(['mv ? d']);
    expect(runs('xargs -iX mv X d')).toEqual(['mv ? d']);
    expect(runs('xargs --replace mv {} d')).toEqual(['mv ? d']);
  });

  it('a replacement string computed at run time may be any word, the program name included', () => {
    expect(runs('xargs -I ? mv a d')).toEqual(['? ? ?']);
    expect(runs('xargs -I {} -- ? {}')).toEqual(['? ?']);
  });

  it.each([
    ['--arg-file f', true],
    ['--delimiter x', true],
    ['--max-args 1', true],
    ['--max-procs 2', true],
    ['--process-slot-var v', true],
    ['--max-chars 9', true],
    ['--null', false],
    ['--eof', false],
    ['--max-lines', false],
    ['--open-tty', false],
    ['--interactive', false],
    ['--no-run-if-empty', false],
    ['--show-limits', false],
    ['--verbose', false],
    ['--exit', false],
  ])('xargs %s rm runs rm (the option takes an argument: %s)', (opt, _takes) => {
    expect(runs(`xargs ${opt} rm`)).toEqual(['rm ...']);
  });

  it('an option it does not know may run anything', () => {
    expect(runs('xargs -z rm')).toEqual(['anything: xargs -z is not an option it knows']);
  });
});

describe('find', () => {
  it('runs what -exec, -execdir, -ok and -okdir name, up to ";" or "{} +"', () => {
    expect(runs('find . -name x -exec rm {} ;')).toEqual(['rm ?']);
    expect(runs('find . -exec rm -f {} + -print')).toEqual(['rm -f ?']);
    expect(runs('find . -exec echo + ;')).toEqual(['echo +']);
    expect(runs('find . -exec a x{}y ; -execdir b ; -ok c ; -okdir d ;')).toEqual([
      'a ?',
      'b',
      'c',
      'd',
    ]);
    expect(runs('find . -exec rm')).toEqual(['rm']);
    expect(runs('find . -exec rm {} x ;')).toEqual(['rm ? x']);
    expect(runs('find . -exec ;')).toEqual([]);
    expect(runs('find . -name x')).toEqual([]);
  });

  it('a computed word could be -exec: it may run anything', () => {
    expect(runs('find . ? rm ;')).toEqual([
      'anything: a word given to find is computed at run time',
    ]);
    expect(runs('find . -exec rm ? ;')).toEqual(['rm ?']);
  });
});

describe('env', () => {
  it.each([
    ['env FOO=1 BAR= rm x', ['FOO:FOO=1 | BAR:BAR= | rm x']],
    ['env -i FOO=1 rm', ['FOO:FOO=1 | rm']],
    ['env - FOO=1 rm', ['FOO:FOO=1 | rm']],
    ['env -0v -u X -C d rm', ['rm']],
    ['env BASH_FUNC_f%%=() rm', ['BASH_FUNC_f%%:BASH_FUNC_f%%=() | rm']],
    ['env =x rm', ['=x rm']],
    ['env =a=b rm', ['=a=b rm']],
    ['env', []],
    ['env --ignore-environment --null --unset X --chdir d rm', ['rm']],
    [
      'env --debug --default-signal --ignore-signal --block-signal --list-signal-handling rm',
      ['rm'],
    ],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it('-S, a computed word or an unknown option may run anything', () => {
    expect(runs('env -S rm')).toEqual(['anything: env -S splits a string into the command']);
    expect(runs('env --split-string=rm')).toEqual([
      'anything: env -S splits a string into the command',
    ]);
    expect(runs('env FOO=1 ? rm')).toEqual([
      'anything: a word given to env is computed at run time',
    ]);
    expect(runs('env -z rm')).toEqual(['anything: env -z is not an option it knows']);
  });
});

describe('sudo and doas', () => {
  it.each([
    ['sudo rm x', ['rm x']],
    ['sudo -u root -g g -AbEHknPS rm', ['rm']],
    ['sudo FOO=1 rm', ['FOO:FOO=1 | rm']],
    ['sudo -s rm', ['rm']],
    ['sudo', []],
    ['sudo -e f', []],
    ['sudo --edit f', []],
    ['sudo -l', []],
    ['sudo -l rm', []],
    ['sudo -v rm', []],
    ['sudo --validate rm', []],
    ['sudo -V rm', []],
    ['sudo --version rm', []],
    ['sudo -K rm', []],
    ['doas -C conf rm', []],
    ['sudo --list rm', []],
    ['sudo -v', []],
    ['sudo --validate', []],
    ['sudo -V', []],
    ['sudo --version', []],
    ['sudo -K', []],
    ['sudo --close-from 3 --chdir d --chroot r --group g --host h rm', ['rm']],
    ['sudo --prompt p --role r --type t --command-timeout 1 --other-user u --user u rm', ['rm']],
    ['sudo --askpass --background --bell --preserve-env --set-home --help rm', ['rm']],
    ['sudo --remove-timestamp --reset-timestamp --non-interactive rm', ['rm']],
    ['sudo --preserve-groups --stdin rm', ['rm']],
    ['doas -u root rm x', ['rm x']],
    ['doas -n -C conf', []],
    ['doas -s rm', ['rm']],
    ['doas', []],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it('a shell reading its input, a computed word or an unknown option may run anything', () => {
    for (const line of ['sudo -s', 'sudo -i', 'sudo --shell', 'sudo --login'])
      expect(runs(line), line).toEqual([
        'anything: sudo starts a shell that reads commands from its input',
      ]);
    expect(runs('sudo ? rm')).toEqual(['anything: an option of sudo is computed at run time']);
    expect(runs('sudo -- ? rm')).toEqual([
      'anything: a word given to sudo is computed at run time',
    ]);
    expect(runs('doas -s')).toEqual([
      'anything: doas -s starts a shell that reads commands from its input',
    ]);
    expect(runs('doas -x rm')).toEqual(['anything: doas -x is not an option it knows']);
  });
});

describe('eval, trap and alias hold shell source', () => {
  it.each([
    ['eval rm x', ['source: rm x']],
    ['eval', []],
    ['eval rm ?', ['anything: eval of words computed at run time']],
    ['trap rm EXIT', ['source: rm']],
    ['trap -- rm EXIT INT', ['source: rm']],
    ['trap rm', []],
    ['trap - EXIT', []],
    ['trap -p', []],
    ['trap -l', []],
    ['trap ? EXIT', ['anything: an option of trap is computed at run time']],
    ['trap -- ? EXIT', ["anything: a trap's action is computed at run time"]],
    ['trap -x rm EXIT', ['anything: trap -x is not an option it knows']],
    ['alias x', []],
    ['alias =y', []],
    ['alias ? x=rm', ['anything: an alias computed at run time']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it("trap '' resets to ignoring the signal", () => {
    expect(wrapper('trap').unwrap(['', 'INT'])).toEqual([]);
  });

  it("an alias's value runs with the later command's words, and the definition is unjudged", () => {
    const unjudged =
      'unjudged: alias makes a later command word run other text, which later commands do not show';
    expect(runs('alias x=rm')).toEqual(['source: rm "$@"', unjudged]);
    expect(runs('alias a=b=c y c=d')).toEqual(['source: b=c "$@"', 'source: d "$@"', unjudged]);
  });
});

describe('command, time, coproc and reserved words', () => {
  it.each([
    ['command rm x', ['rm x']],
    ['command -p rm', ['rm']],
    ['command -v rm', []],
    ['command -V rm', []],
    ['command -x rm', ['anything: command -x is not an option it knows']],
    ['time rm', ['rm']],
    ['time', []],
    ['time -p rm', ['rm']],
    ['time -vaq -f %e -o out rm', ['rm']],
    ['time --format %e --output out --append --verbose --portability --quiet rm', ['rm']],
    ['time -z rm', ['anything: time -z is not an option it knows']],
    ['time FOO=1 _b2+=x rm', ['FOO=1 _b2+=x rm', 'FOO:FOO=1 | _b2:_b2+=x | rm']],
    ['time 1A=2 rm', ['1A=2 rm']],
    ['time a-b=2 rm', ['a-b=2 rm']],
    ['time x FOO=1', ['x FOO=1']],
    ['time -- ? FOO=1', ['? FOO=1']],
    ['coproc rm x', ['rm x']],
    ['coproc A=1 b', ['A=1 b', 'A:A=1 | b']],
    ['coproc N { a; }', ['anything: coproc with a compound command']],
    ['coproc a }', ['anything: coproc with a compound command']],
    ['coproc { a', ['anything: coproc with a compound command']],
    ['coproc ?', ['anything: coproc with a compound command']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it.each(
    '! { } case do done elif else esac fi for function if in select then until while [[ ]]'.split(
      ' ',
    ),
  )('the reserved word %s read as a command runs what follows, unjudged', (word) => {
    expect(runs(`${word} FOO=1 rm`)).toEqual([
      `unjudged: the grammar read the reserved word "${word}" as a command`,
      'FOO=1 rm',
      'FOO:FOO=1 | rm',
    ]);
  });
});

describe('git', () => {
  it.each([
    ['git push x', []],
    ['git', []],
    ['git ? push', []],
    ['git -C dir push x', ['git push x']],
    ['git --git-dir=x push', ['git push']],
    ['git --git-dir x --work-tree y push', ['git push']],
    ['git --namespace n --super-prefix p --attr-source a push', ['git push']],
    ['git -c user.name=x commit', ['git commit']],
    ['git --config-env=user.name=X commit', ['git commit']],
    ['git -C', ['git']],
    ['git --unknown a push', ['git a push', 'git push']],
    ['git -C d --weird=1 push', ['git push', 'git']],
    ['git -C=d push', ['git push', 'git']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it.each(
    [
      '-p --paginate -P --no-pager --bare --no-replace-objects --no-lazy-fetch --literal-pathspecs',
      '--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice',
      '--exec-path --html-path --man-path --info-path -v --version -h --help',
    ]
      .join(' ')
      .split(' '),
  )('git %s takes no value: the subcommand follows it', (flag) => {
    expect(runs(`git ${flag} push x`)).toEqual(['git push x']);
  });

  it.each([
    'alias.x=!rm',
    'include.path=f',
    'includeIf.gitdir:x.path=f',
    'pager.log=x',
    'credential.helper=x',
    'diff.x.textconv=x',
    'merge.x.driver=x',
    'filter.x.clean=x',
    'gpg.program=x',
    'difftool.x.cmd=x',
    'mergetool.x.cmd=x',
    'browser.x.cmd=x',
    'web.browser=x',
    'sendemail.smtpserver=x',
    'man.viewer=x',
    'uploadpack.packObjectsHook=x',
    'remote.origin.uploadpack=x',
    'remote.o.receivepack=x',
    'core.pager=x',
    'core.editor=x',
    'core.sshCommand=x',
    'core.fsmonitor=x',
    'core.hooksPath=x',
    'core.askPass=x',
    'core.gitProxy=x',
    'core.alternateRefsCommand=x',
    'sequence.editor=x',
    'ssh.variant=x',
    'ALIAS.X=y',
  ])('git -c %s sets what makes git run a command: it may run anything', (setting) => {
    expect(runs(`git -c ${setting} push`)).toEqual([
      'anything: git -c sets configuration that makes git run a command',
    ]);
    expect(runs(`git --config-env=${setting} push`)).toEqual([
      'anything: git --config-env sets configuration that makes git run a command',
    ]);
  });

  it.each([
    'user.name=x',
    'core.editorx=x',
    'core.pagerx=y',
    'xcore.pager=y',
    'remote.origin.uploadpackx=y',
    'remote.origin.url=y',
    'sequence.editors=y',
    'x.alias.y=z',
    'color.ui=alias.',
  ])('git -c %s runs nothing more: the subcommand is judged', (setting) => {
    expect(runs(`git -c ${setting} push`)).toEqual(['git push']);
  });

  it('a computed setting may make git run anything', () => {
    expect(runs('git -c ? push')).toEqual([
      'anything: git -c sets configuration that makes git run a command',
    ]);
    expect(runs('git -c')).toEqual([
      'anything: git -c sets configuration that makes git run a command',
    ]);
  });
});

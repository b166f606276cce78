import type { WordValue } from './bash-words';

// Commands that run other commands, and how to find what they run: the command a wrapper runs
// (`nice -n 5 rm`, `env FOO=1 rm`, `xargs rm`, `find . -exec rm {} ;`, `sudo -u x rm`, the
// subcommand after `git -C dir`), or shell source it parses (`sh -c '...'`, `eval ...`, a trap's
// action, an alias's value). An option this table does not know could take the next word as its
// argument, and then the command would be another word than the one assumed: such a wrapper "may
// run anything" instead of guessing.
//
// A transparent wrapper is part of the shell's own syntax or a builtin that only passes the
// command on (`command`, `builtin`, `exec`, `time`, `eval`, `coproc`): only what it runs is
// judged. Every other wrapper is a program of its own, judged as a command too.

export interface Assignment {
  /** The variable's name. */
  name: string;
  /** `NAME=value` after quote removal, or null when the value is computed at run time. */
  word: WordValue;
}

export type Unwrapped =
  | { kind: 'command'; words: WordValue[]; assignments: Assignment[]; moreArgs: boolean }
  | { kind: 'source'; text: string }
  | { kind: 'anything'; why: string }
  | { kind: 'unjudged'; why: string };

export interface Wrapper {
  transparent: boolean;
  unwrap(args: WordValue[]): Unwrapped[];
}

interface OptionSpec {
  /** Short options without an argument. */
  flags?: string;
  /** Short options with an argument (attached or the next word). */
  withArg?: string;
  /** Short options whose argument, if any, is attached (`-i{}`, `-e`). */
  attachedArg?: string;
  /** Long options: whether each takes an argument (`--x=v` or `--x v`). */
  long?: Record<string, boolean>;
  /** `-10` is a number option (nice's old form). */
  numbers?: boolean;
}

type Options =
  { ok: true; seen: Map<string, WordValue | true>; rest: WordValue[] } | { ok: false; why: string };

/** Reads the options in front of a wrapper's command, as getopt would (stopping at the first operand). */
export function options(name: string, args: WordValue[], spec: OptionSpec): Options {
  const seen = new Map<string, WordValue | true>();
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === null) return { ok: false, why: `an option of ${name} is computed at run time` };
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = eq === -1 ? a.slice(2) : a.slice(2, eq);
      const takes = spec.long?.[key];
      if (takes === undefined) return { ok: false, why: `${name} ${a} is not an option it knows` };
      if (eq !== -1) seen.set(key, a.slice(eq + 1));
      else if (takes) seen.set(key, args[++i] ?? null);
      else seen.set(key, true);
      continue;
    }
    if (spec.numbers && /^-\d+$/.test(a)) {
      seen.set('n', a.slice(1));
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (spec.flags?.includes(c)) seen.set(c, true);
      else if (spec.attachedArg?.includes(c)) {
        seen.set(c, a.slice(j + 1) || true);
        break;
      } else if (spec.withArg?.includes(c)) {
        seen.set(c, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? null));
        break;
      } else return { ok: false, why: `${name} -${c} is not an option it knows` };
    }
  }
  return { ok: true, seen, rest: args.slice(i) };
}

const run = (words: WordValue[], assignments: Assignment[] = [], moreArgs = false): Unwrapped[] =>
  words.length ? [{ kind: 'command', words, assignments, moreArgs }] : [];
const anything = (why: string): Unwrapped[] => [{ kind: 'anything', why }];

/** A wrapper whose options are read by `spec` and whose command is the words after them. */
function simple(name: string, transparent: boolean, spec: OptionSpec, skip = 0): Wrapper {
  return {
    transparent,
    unwrap(args) {
      const o = options(name, args, spec);
      return o.ok ? run(o.rest.slice(skip)) : anything(o.why);
    },
  };
}

/** env and sudo take any word with a `=` for an assignment (`BASH_FUNC_f%%=...` included). */
const NAME_VALUE = /^([^=]+)=/;

/** Leading NAME=value words (env, sudo): they set the command's environment. */
function leadingAssignments(
  name: string,
  words: WordValue[],
): { assignments: Assignment[]; rest: WordValue[] } | { why: string } {
  const assignments: Assignment[] = [];
  let i = 0;
  // Stryker disable next-line EqualityOperator: one past the end is undefined, which matches no NAME=value and ends the loop
  for (; i < words.length; i++) {
    const w = words[i]!;
    // A computed word may be an assignment or the program: which one is only known at run time.
    if (w === null) return { why: `a word given to ${name} is computed at run time` };
    const m = NAME_VALUE.exec(w);
    if (!m) break;
    assignments.push({ name: m[1]!, word: w });
  }
  return { assignments, rest: words.slice(i) };
}

/** `sh -c 'source'`, `bash script`, or a shell reading its commands from its input. */
function shell(name: string): Wrapper {
  return {
    transparent: false,
    unwrap(args) {
      let command = false;
      let i = 0;
      for (; i < args.length; i++) {
        const a = args[i]!;
        if (a === null) return anything(`an option of ${name} is computed at run time`);
        if (a === '--' || a === '-') {
          i++;
          break;
        }
        if (a.startsWith('--')) {
          if (a === '--rcfile' || a === '--init-file') i++;
          continue;
        }
        if (!/^[-+]/.test(a)) break;
        if (a.startsWith('-') && a.includes('c')) command = true;
        if (a.includes('s')) return anything(`${name} -s reads commands from its input`);
        // -o / -O take an option name each.
        i += [...a].filter((c) => c === 'o' || c === 'O').length;
      }
      const rest = args.slice(i);
      if (command) {
        if (!rest.length) return [];
        return rest[0] === null
          ? anything(`the commands given to ${name} -c are computed at run time`)
          : [{ kind: 'source', text: rest[0]! }];
      }
      // A script file runs like any program's code; with none, the commands come from the input.
      return rest.length ? [] : anything(`${name} reads commands from its input`);
    },
  };
}

const xargs: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('xargs', args, {
      flags: '0oprtx',
      withArg: 'adEILnPs',
      attachedArg: 'eil',
      long: {
        null: false,
        'arg-file': true,
        delimiter: true,
        eof: false,
        replace: false,
        'max-lines': false,
        'max-args': true,
        'open-tty': false,
        'max-procs': true,
        interactive: false,
        'process-slot-var': true,
        'no-run-if-empty': false,
        'max-chars': true,
        'show-limits': false,
        verbose: false,
        exit: false,
      },
    });
    if (!o.ok) return anything(o.why);
    const words = o.rest.length ? o.rest : ['echo'];
    // `has`, not `??`: a replacement string computed at run time is null, and may be any word.
    const key = ['I', 'i', 'replace'].find((k) => o.seen.has(k));
    if (key === undefined) return run(words, [], true);
    const replace = o.seen.get(key)!;
    // Each input line replaces the replacement string in the words that hold it.
    const str = replace === true ? '{}' : replace;
    return run(words.map((w) => (str === null || w === null || w.includes(str) ? null : w)));
  },
};

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

const find: Wrapper = {
  transparent: false,
  unwrap(args) {
    const out: Unwrapped[] = [];
    // Stryker disable next-line EqualityOperator: one past the end is undefined, which is no -exec
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      // A computed word could be `-exec` itself.
      if (a === null) return anything('a word given to find is computed at run time');
      if (!FIND_EXEC.has(a)) continue;
      const words: WordValue[] = [];
      for (i++; i < args.length; i++) {
        const w = args[i] ?? null;
        if (w === ';' || (w === '+' && words[words.length - 1] === null)) break;
        words.push(w === null || w.includes('{}') ? null : w);
      }
      out.push(...run(words));
    }
    return out;
  },
};

const env: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('env', args, {
      flags: 'i0v',
      withArg: 'uCS',
      long: {
        'ignore-environment': false,
        null: false,
        unset: true,
        chdir: true,
        // Stryker disable next-line BooleanLiteral: -S refuses whatever its value
        'split-string': true,
        debug: false,
        'default-signal': false,
        'ignore-signal': false,
        'block-signal': false,
        'list-signal-handling': false,
      },
    });
    if (!o.ok) return anything(o.why);
    if (o.seen.has('S') || o.seen.has('split-string'))
      return anything('env -S splits a string into the command');
    const rest = o.rest[0] === '-' ? o.rest.slice(1) : o.rest;
    const a = leadingAssignments('env', rest);
    return 'why' in a ? anything(a.why) : run(a.rest, a.assignments);
  },
};

const sudo: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('sudo', args, {
      flags: 'AbEeHiKklnPSsVv',
      withArg: 'CDghpRrTtUu',
      long: {
        askpass: false,
        background: false,
        bell: false,
        'close-from': true,
        chdir: true,
        chroot: true,
        'preserve-env': false,
        // Stryker disable next-line BooleanLiteral: with --edit nothing runs, whatever word follows
        edit: false,
        group: true,
        'set-home': false,
        help: false,
        host: true,
        login: false,
        'remove-timestamp': false,
        'reset-timestamp': false,
        // Stryker disable next-line BooleanLiteral: with --list nothing runs, whatever word follows
        list: false,
        'non-interactive': false,
        'preserve-groups': false,
        prompt: true,
        role: true,
        stdin: false,
        shell: false,
        type: true,
        'command-timeout': true,
        'other-user': true,
        user: true,
        // Stryker disable next-line BooleanLiteral: with --version nothing runs, whatever word follows
        version: false,
        // Stryker disable next-line BooleanLiteral: with --validate nothing runs, whatever word follows
        validate: false,
      },
    });
    if (!o.ok) return anything(o.why);
    // Editing, listing, validating: no command runs.
    for (const k of ['e', 'edit', 'l', 'list', 'v', 'validate', 'V', 'version', 'K'])
      if (o.seen.has(k)) return [];
    const a = leadingAssignments('sudo', o.rest);
    if ('why' in a) return anything(a.why);
    if (!a.rest.length && ['s', 'i', 'shell', 'login'].some((k) => o.seen.has(k)))
      return anything('sudo starts a shell that reads commands from its input');
    return run(a.rest, a.assignments);
  },
};

const doas: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('doas', args, { flags: 'nSs', withArg: 'Cu' });
    if (!o.ok) return anything(o.why);
    if (o.seen.has('C')) return [];
    if (!o.rest.length && o.seen.has('s'))
      return anything('doas -s starts a shell that reads commands from its input');
    return run(o.rest);
  },
};

const evalBuiltin: Wrapper = {
  transparent: true,
  unwrap(args) {
    if (args.some((a) => a === null)) return anything('eval of words computed at run time');
    return args.length ? [{ kind: 'source', text: args.join(' ') }] : [];
  },
};

const trap: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('trap', args, { flags: 'lpP' });
    if (!o.ok) return anything(o.why);
    // `trap ACTION SIGNAL...`: the action is shell source run later; one word alone resets.
    if (o.rest.length < 2) return [];
    const action = o.rest[0];
    if (action === null) return anything("a trap's action is computed at run time");
    return action === '-' || action === '' ? [] : [{ kind: 'source', text: action! }];
  },
};

/**
 * `alias NAME=VALUE`: a later command whose first word is NAME runs VALUE followed by that
 * command's other words (`alias x=rm` then `x -rf /`), which are not known here: the value is
 * parsed as source with computed words after it, so a deny rule sees what it names. Bash pastes
 * the value in as text (a value ending in a blank expands the next word's alias too), in this
 * shell's later lines and, in a shell that stays open, in later calls: what a command word runs
 * no longer follows from the command, so no allow rule covers a definition; it asks.
 */
const alias: Wrapper = {
  transparent: false,
  unwrap(args) {
    const out: Unwrapped[] = [];
    for (const a of args) {
      if (a === null) return anything('an alias computed at run time');
      const eq = a.indexOf('=');
      if (eq > 0) out.push({ kind: 'source', text: `${a.slice(eq + 1)} "$@"` });
    }
    if (out.length)
      out.push({
        kind: 'unjudged',
        why: 'alias makes a later command word run other text, which later commands do not show',
      });
    return out;
  },
};

const command: Wrapper = {
  transparent: true,
  unwrap(args) {
    const o = options('command', args, { flags: 'pvV' });
    if (!o.ok) return anything(o.why);
    // `command -v x` names x; it does not run it.
    return o.seen.has('v') || o.seen.has('V') ? [] : run(o.rest);
  },
};

/**
 * After the keywords `time` and `coproc` bash reads a whole simple command, assignments included
 * (`time FOO=1 rm`), which the grammar reads as words. A quoted `'FOO=1'` would be a program
 * name instead, and quotes are gone from the words: both readings are judged.
 */
function afterKeyword(words: WordValue[]): Unwrapped[] {
  const assignments: Assignment[] = [];
  let i = 0;
  // Stryker disable next-line EqualityOperator: one past the end reads as '', no assignment
  for (; i < words.length; i++) {
    // Stryker disable next-line StringLiteral: a computed word is no assignment, whatever text stands for it without '='
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(words[i] ?? '');
    if (!m) break;
    assignments.push({ name: m[1]!, word: words[i]! });
  }
  return i ? [...run(words), ...run(words.slice(i), assignments)] : run(words);
}

const keyword: Wrapper = {
  transparent: true,
  unwrap(args) {
    const o = options('time', args, {
      flags: 'pvaq',
      withArg: 'fo',
      long: {
        format: true,
        output: true,
        append: false,
        verbose: false,
        portability: false,
        quiet: false,
      },
    });
    return o.ok ? afterKeyword(o.rest) : anything(o.why);
  },
};

const coproc: Wrapper = {
  transparent: true,
  unwrap(args) {
    // The grammar reads `coproc NAME { ...; }` as words: what runs is not known from them.
    if (args.some((a) => a === '{' || a === '}' || a === null))
      return anything('coproc with a compound command');
    return afterKeyword(args);
  },
};

/**
 * Reserved words the grammar sometimes reads as a command's name (`! if a; then b; fi` gives the
 * commands `if a`, `then b` and `fi`, with no syntax error): what follows is judged as the command
 * bash would run, and the whole is unjudged, since the grammar did not read it as bash does.
 */
const RESERVED = ['!', '{', '}', 'case', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for'];
RESERVED.push('function', 'if', 'in', 'select', 'then', 'until', 'while', '[[', ']]');
const reserved = (word: string): Wrapper => ({
  transparent: true,
  unwrap: (args) => [
    { kind: 'unjudged', why: `the grammar read the reserved word "${word}" as a command` },
    ...afterKeyword(args),
  ],
});

/** git's options before its subcommand that take a value (`-C dir`, `--git-dir=x` or `--git-dir x`). */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--attr-source',
]);
/** git's options before its subcommand that take none (`--exec-path` alone prints a path). */
const GIT_FLAGS = new Set(
  [
    '-p --paginate -P --no-pager --bare --no-replace-objects --no-lazy-fetch --literal-pathspecs',
    '--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice',
    '--exec-path --html-path --man-path --info-path -v --version -h --help',
  ]
    .join(' ')
    .split(' '),
);
/**
 * Configuration a `git -c KEY=VALUE` sets that makes git run a command of the value, or read
 * more configuration: an alias (`alias.x=!rm -rf ~`, or `alias.p=push`, another subcommand), a
 * pager, an editor, hooks, helpers, drivers, filters, included files.
 */
const GIT_RUNS_CONFIG =
  /^(alias\.|include|pager\.|credential\.|diff\.|merge\.|filter\.|gpg\.|difftool\.|mergetool\.|browser\.|web\.|sendemail\.|man\.|uploadpack\.|remote\..*\.(uploadpack|receivepack)$|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|alternaterefscommand)$|sequence\.editor$|ssh\.)/i;

/** A `-c` / `--config-env` setting that may make git run another command (null: computed). */
function gitConfigRuns(setting: WordValue): boolean {
  return setting === null || GIT_RUNS_CONFIG.test(setting.split('=', 1)[0]!);
}

/**
 * `git -C dir push`, `git --git-dir=x -c a=b push`: options before the subcommand. What runs is
 * judged as `git push ...` too, so a rule on `git push` sees through them. An option this table
 * does not know may or may not take the next word: both readings are judged.
 */
const git: Wrapper = {
  transparent: false,
  unwrap(args) {
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      // A computed word may be options and the subcommand: the words as they are say so.
      if (a === null || !a.startsWith('-')) break;
      const eq = a.indexOf('=');
      const name = a.startsWith('--') && eq !== -1 ? a.slice(0, eq) : a;
      if (GIT_VALUE_OPTIONS.has(name)) {
        const value = name === a ? (args[++i] ?? null) : a.slice(eq + 1);
        if ((name === '-c' || name === '--config-env') && gitConfigRuns(value))
          return anything(`git ${name} sets configuration that makes git run a command`);
      } else if (!GIT_FLAGS.has(name)) {
        return [...run(['git', ...args.slice(i + 1)]), ...run(['git', ...args.slice(i + 2)])];
      }
    }
    return i === 0 ? [] : run(['git', ...args.slice(i)]);
  },
};

const SHELLS = ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash'];

const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map<string, Wrapper>([
  ['command', command],
  ['builtin', simple('builtin', true, {})],
  ['exec', simple('exec', true, { flags: 'cl', withArg: 'a' })],
  ['time', keyword],
  ['eval', evalBuiltin],
  ['coproc', coproc],
  ['nice', simple('nice', false, { withArg: 'n', long: { adjustment: true }, numbers: true })],
  ['nohup', simple('nohup', false, {})],
  [
    'timeout',
    simple(
      'timeout',
      false,
      {
        flags: 'v',
        withArg: 'sk',
        long: {
          signal: true,
          'kill-after': true,
          'preserve-status': false,
          foreground: false,
          verbose: false,
        },
      },
      1,
    ),
  ],
  [
    'stdbuf',
    simple('stdbuf', false, { withArg: 'ioe', long: { input: true, output: true, error: true } }),
  ],
  [
    'setsid',
    simple('setsid', false, { flags: 'cfw', long: { ctty: false, fork: false, wait: false } }),
  ],
  ['busybox', simple('busybox', false, {})],
  ['env', env],
  ['xargs', xargs],
  ['find', find],
  ['sudo', sudo],
  ['doas', doas],
  ['trap', trap],
  ['alias', alias],
  ['git', git],
  ...SHELLS.map((s) => [s, shell(s)] as const),
  ...RESERVED.map((w) => [w, reserved(w)] as const),
]);

/** The wrapper a program name is, judged by its last path component (`/usr/bin/env` is env). */
export function wrapperFor(program: string): Wrapper | undefined {
  return WRAPPERS.get(program.slice(program.lastIndexOf('/') + 1));
}

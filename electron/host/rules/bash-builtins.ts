import { isCodeVariable, literalArithmetic, plainName, testRunsData } from './bash-data-code';
import type { WordValue } from './bash-words';
import { options, type Unwrapped, type Wrapper } from './bash-wrappers';

// Builtins that run code held in their arguments or in data they name (bash-data-code.ts says
// why a value read as arithmetic or as a variable name runs code): `let`, `declare -i`,
// `printf -v`, `read`, `wait -p`, `unset`, `test -v`, a computed or subscripted name given to
// `declare` / `export` / `local`; a callback (`mapfile -C`, parsed as source), a completion
// command or word list (`complete` / `compgen -C` / `-W`), a key binding (`bind -x`), a file
// (`source`, `.`), a program remembered under another name (`hash -p`), a shared object
// (`enable -f`). Found by the name bash looks builtins up by (the word itself, never a path);
// each is judged as a command too.

const unjudged = (why: string): Unwrapped[] => [{ kind: 'unjudged', why }];

/** A name a builtin assigns: one with a subscript runs code, one bash runs code from may run anything. */
function assigned(builtin: string, name: WordValue): Unwrapped[] {
  if (name !== null && isCodeVariable(name))
    // Stryker disable next-line StringLiteral: an anything's reason is not shown (the command counts as any program)
    return [{ kind: 'anything', why: `${builtin} sets ${name}, a variable bash runs code from` }];
  return plainName(name)
    ? []
    : unjudged(
        `${builtin} assigns a variable named by a value, whose subscript bash evaluates, running its command substitutions`,
      );
}

/** Options read from a word computed at run time: it may be the name itself. */
const computedName = (builtin: string): Unwrapped[] =>
  unjudged(
    `${builtin} of a word computed at run time, which may name a variable with a subscript bash evaluates, running its command substitutions`,
  );

/** Options that could not be read (`why`): a computed word among them, or one it does not have. */
const unreadOptions = (builtin: string, args: WordValue[], why: string): Unwrapped[] =>
  args.includes(null) ? computedName(builtin) : unjudged(why);

/** `declare`, `typeset`, `local` (integer and nameref attributes); `export`, `readonly`. */
function declaration(name: string, attributes: boolean): Wrapper {
  return {
    transparent: false,
    unwrap(args) {
      for (const a of args) {
        if (a === null) return unjudged(`${name} with a name or option computed at run time`);
        if (/^[-+]/.test(a)) {
          // -i: assignments to the name are arithmetic; -n: its value is another variable's name.
          // Stryker disable next-line MethodExpression: a[0] is - or +, neither i nor n
          if (attributes && /[in]/.test(a.slice(1)))
            return unjudged(
              `${name} ${a} makes the variable's values arithmetic or names, which runs the command substitutions in their subscripts`,
            );
          continue;
        }
        const eq = a.search(/\+?=/);
        const found = assigned(name, eq === -1 ? a : a.slice(0, eq));
        if (found.length) return found;
      }
      return [];
    },
  };
}

const letBuiltin: Wrapper = {
  transparent: false,
  unwrap: (args) =>
    args.every(literalArithmetic)
      ? []
      : unjudged(
          "let evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts",
        ),
};

/**
 * A builtin whose option `flag` names the variable it assigns: `printf -v NAME`, `wait -p NAME`.
 * A computed word where options are read may be that option and a name (`printf $x` with
 * x='-v a[$(cmd)]'), so it counts as a computed name.
 */
function assignsByOption(builtin: string, flags: string, flag: string): Wrapper {
  return {
    transparent: false,
    unwrap(args) {
      const o = options(builtin, args, { flags, withArg: flag });
      if (!o.ok) return unreadOptions(builtin, args, o.why);
      const name = o.seen.get(flag);
      if (name === undefined) return [];
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: an option with an argument is never true in options() (a missing one is null)
      return assigned(`${builtin} -${flag}`, name === true ? null : name);
    },
  };
}

/** `unset 'a[i]'` evaluates the subscript; `unset -f` names functions, which have none. */
const unset: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('unset', args, { flags: 'fnv' });
    if (!o.ok) return unreadOptions('unset', args, o.why);
    if (o.seen.has('f')) return [];
    return o.rest.every(plainName)
      ? []
      : unjudged(
          'unset of a name computed at run time or with a subscript, which bash evaluates, running its command substitutions',
        );
  },
};

const read: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('read', args, { flags: 'ers', withArg: 'adinNptu' });
    if (!o.ok) return unreadOptions('read', args, o.why);
    const array = o.seen.get('a');
    const names = [...o.rest];
    if (array !== undefined)
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: as in assignsByOption, -a is never true
      names.unshift(array === true ? null : array);
    for (const n of names) {
      const found = assigned('read', n);
      if (found.length) return found;
    }
    return [];
  },
};

const mapfile: Wrapper = {
  transparent: false,
  unwrap(args) {
    const o = options('mapfile', args, { flags: 't', withArg: 'dnOsuCc' });
    if (!o.ok) return unjudged(o.why);
    const out: Unwrapped[] = [];
    const array = o.rest[0];
    if (array && isCodeVariable(array))
      // Stryker disable next-line StringLiteral: an anything's reason is not shown
      out.push({ kind: 'anything', why: `mapfile sets ${array}, a variable bash runs code from` });
    const callback = o.seen.get('C');
    if (callback === undefined) return out;
    // Run as `CALLBACK INDEX 'LINE'` through bash's parser: source, with arguments from the input.
    if (typeof callback !== 'string')
      // Stryker disable next-line StringLiteral: an anything's reason is not shown
      out.push({ kind: 'anything', why: "mapfile's callback is computed at run time" });
    else out.push({ kind: 'source', text: `${callback} "$@"` });
    return out;
  },
};

const source: Wrapper = {
  transparent: false,
  unwrap: (args) =>
    args.length
      ? unjudged(
          `source runs the commands in ${args[0] ?? 'a file named at run time'}, which are not known before it runs`,
        )
      : [],
};

/** Options of `complete` / `compgen` that run a command or expand a word list (`$(...)` in it runs). */
const completion = (name: string): Wrapper => ({
  transparent: false,
  unwrap: (args) =>
    args.some((a) => a === null || /^-[A-Za-z]*[CW]/.test(a))
      ? unjudged(`${name} -C / -W runs a command or expands a word list given as a string`)
      : [],
});

/**
 * A builtin whose option `flag` makes it run code the command line does not show. The flag may
 * share its word with other flags and with its argument (`hash -p/bin/rm ls`: bash's getopt reads
 * the rest of the word as the argument).
 */
function option(name: string, flag: string, why: string): Wrapper {
  const given = new RegExp(`^-[A-Za-z]*${flag}`);
  return {
    transparent: false,
    unwrap: (args) =>
      args.some((a) => a === null || given.test(a)) ? unjudged(`${name} -${flag} ${why}`) : [],
  };
}

/**
 * Reached only through a wrapper (`command test`): the words' quoting is gone, so every computed
 * word may split (testRunsData asks that of computed words only).
 */
const test: Wrapper = {
  transparent: false,
  unwrap: (args) =>
    testRunsData(
      (args[args.length - 1] === ']' ? args.slice(0, -1) : args).map((value) => ({
        value,
        splits: true,
      })),
    ),
};

const BUILTINS: ReadonlyMap<string, Wrapper> = new Map<string, Wrapper>([
  ['declare', declaration('declare', true)],
  ['typeset', declaration('typeset', true)],
  ['local', declaration('local', true)],
  ['export', declaration('export', false)],
  ['readonly', declaration('readonly', false)],
  ['let', letBuiltin],
  ['printf', assignsByOption('printf', '', 'v')],
  ['read', read],
  ['wait', assignsByOption('wait', 'fn', 'p')],
  ['unset', unset],
  ['mapfile', mapfile],
  ['readarray', mapfile],
  ['source', source],
  ['.', source],
  ['complete', completion('complete')],
  ['compgen', completion('compgen')],
  ['bind', option('bind', 'x', 'runs a command when a key is pressed')],
  ['hash', option('hash', 'p', 'makes a name run another program')],
  ['enable', option('enable', 'f', 'loads a builtin from a shared object')],
]);

/**
 * The builtin a command's program word names. `test` and `[` only when `wrapped` (their words
 * came through a wrapper): written directly, bash-data-code.ts judges them on the syntax tree,
 * where a quoted expansion is told from one that may split.
 */
export function builtinFor(program: string, wrapped: boolean): Wrapper | undefined {
  if (program === 'test' || program === '[') return wrapped ? test : undefined;
  return BUILTINS.get(program);
}

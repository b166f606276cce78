import type { Node } from 'web-tree-sitter';
import { wordsOf, type WordValue } from './bash-words';
import type { Unwrapped } from './bash-wrappers';

// Where bash runs code held in data. Bash evaluates a variable's value as an arithmetic
// expression wherever arithmetic meets the variable's name, and a subscript in that value is
// expanded, command substitutions included: `x='a[$(rm -rf ~)]'; echo $((x))` runs rm, though the
// command line shows only an assignment and echo (and the value may come from a file or the
// environment). The same happens wherever bash reads a value as arithmetic or as a variable name
// (which may carry a subscript): `((..))`, `let`, `for ((..))`, `[[ a -eq b ]]`, array subscripts,
// `${s:offset:length}`, `${!x}`, `printf -v`, `read`, `test -v`, `{name}>file`, integer and
// nameref variables; and `${x@P}` expands a value as a prompt, command substitutions included.
// What runs there is not known from the command: it is unjudged (a deny rule asks, an allow rule
// never covers it), unless the expression is literal (`$((1 + 2))`, `${a[0]}`, `${s:1:2}`).
// Verified against bash 5.2 (test/reliability/attacks/rules-bash-data.test.ts); `test`'s own
// -eq, -lt... compare integers without arithmetic, and are not listed.

/**
 * Variables through which bash (or the dynamic loader) runs code the command line does not show:
 * a function imported from the environment, a file sourced at start, prompt and debug hooks.
 */
const CODE_VARIABLES =
  /^(BASH_FUNC_.*|BASH_ENV|ENV|PROMPT_COMMAND|PS0|PS1|PS4|SHELLOPTS|BASHOPTS)$/;

/** Whether assigning this variable (`NAME` or `NAME[i]`) makes bash run code it holds. */
export function isCodeVariable(name: string): boolean {
  const bracket = name.indexOf('[');
  return CODE_VARIABLES.test(bracket === -1 ? name : name.slice(0, bracket));
}

/** A variable name that carries no code: an identifier, with a literal index at most. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?$/;

export const plainName = (w: WordValue | undefined): boolean => !!w && PLAIN_NAME.test(w);

/** Integers as arithmetic writes them (decimal, 0x.., base#digits): no name among them. */
const NUMBERS = /\b(0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+|\d+)\b/g;
/** What is left of literal arithmetic once its numbers are removed: operators and blanks. */
const OPERATORS = /^[\s+\-*/%()<>=!&|^~?:,]*$/;

/** Whether arithmetic written as this text reads no variable (its numbers and operators only). */
export function literalArithmetic(text: WordValue | undefined): boolean {
  return typeof text === 'string' && OPERATORS.test(text.replace(NUMBERS, ''));
}

const unjudged = (why: string): Unwrapped => ({ kind: 'unjudged', why });
const anything = (why: string): Unwrapped => ({ kind: 'anything', why });

const arithmetic = (what: string) =>
  unjudged(
    `${what} evaluates a variable's value as arithmetic, which runs the command substitutions in its subscripts`,
  );
const asName = (what: string) =>
  unjudged(
    `${what} uses a value as a variable name, whose subscript bash evaluates, running its command substitutions`,
  );

/** Node types arithmetic made only of numbers and operators consists of. */
const LITERAL_ARITHMETIC = new Set([
  'number',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
]);

function literalArithmeticNode(n: Node): boolean {
  return n.namedChildren.every((c) => LITERAL_ARITHMETIC.has(c.type) && literalArithmeticNode(c));
}

/** A decimal integer, signed or not. */
const INTEGER = /^[+-]?\d+$/;

/** `[[ a -eq b ]]` and the like compare arithmetic expressions. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * One word of `test` / `[`: its value, and whether, computed, it may split into several (an
 * unquoted expansion); `splits` is read only of computed words.
 */
export interface TestWord {
  value: WordValue;
  splits: boolean;
}

/**
 * `test` and `[` read `-v NAME` (the name's subscript is evaluated), and which word is that
 * operator is only known once words are expanded: an unquoted expansion may become `-v` and a
 * name (`[ -f $x ]` with x='x -o -v a[$(cmd)]'), a quoted one may be `-v` when a word follows.
 */
export function testRunsData(words: readonly TestWord[]): Unwrapped[] {
  for (let i = 0; i < words.length; i++) {
    const { value, splits } = words[i]!;
    const next = words[i + 1];
    if (value === null && splits)
      return [asName('test with an unquoted expansion, which may become -v NAME,')];
    if (value === '-v' && next && !plainName(next.value)) return [asName('test -v')];
    if (value === null && next && (next.value === null || next.value.includes('[')))
      return [asName('test with a computed word where -v may be,')];
  }
  return [];
}

/** Special parameters that are always numbers: their unquoted expansion is one word. */
const NUMERIC_PARAMETER = /^\$[?#$!]$|^\$\{#[^}]*\}$/;

/** A word of `test` / `[` as written in the tree. */
function testWord(n: Node, src: string): TestWord {
  const [value = null] = wordsOf([n], src);
  const splits = n.type !== 'string' && !NUMERIC_PARAMETER.test(n.text);
  return { value, splits };
}

/** The words of these nodes of a `[ ... ]`, which the grammar read as an expression, in order. */
function bracketWords(nodes: readonly Node[], src: string): TestWord[] {
  return nodes.flatMap((c) => {
    if (['binary_expression', 'unary_expression', 'parenthesized_expression'].includes(c.type))
      return bracketWords(c.children, src);
    // An operator's node is no word; the parentheses, `!` and `=` are read as words as written.
    // Stryker disable next-line BooleanLiteral: splits is read only of computed words, and an operator's value is its text
    if (c.type === 'test_operator') return [{ value: c.text, splits: false }];
    return [testWord(c, src)];
  });
}

/** The words of an expansion's operator part: `${s:o:l}` offsets, `${!x}`, `${x@P}`. */
function expansion(n: Node): Unwrapped[] {
  const kids = n.children;
  const out: Unwrapped[] = [];
  const named = n.namedChildren;
  const [first] = named;
  // `${!}` is `$!`, a process id.
  // Stryker disable next-line OptionalChaining: an expansion has `${` and a child after it (the closing brace at least)
  if (kids[1]?.type === '!' && first) {
    // `${!prefix*}`, `${!prefix@}` and `${!a[@]}` list names or keys; every other `${!x}` reads x's value as a name.
    // Stryker disable next-line OptionalChaining: with `${`, `!` and a named child, the child before the closing brace exists
    const last = kids[kids.length - 2]?.type;
    // Only a subscript has an index (none: "undefined", no match). The grammar gives `*` and `@`
    // a node of their own only after a name alone, so they end no other expansion.
    const index = String(first.childForFieldName('index')?.text);
    const lists = last === '*' || last === '@' || /^[@*]$/.test(index);
    if (!lists) out.push(asName('${!name}'));
  }
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i]!;
    // Stryker disable next-line ConditionalExpression,OptionalChaining: the grammar gives a P operator only after @, and @ is never the last child (the closing brace is)
    if (k.type === '@' && kids[i + 1]?.type === 'P')
      out.push(
        unjudged('${x@P} expands a value as a prompt, which runs its command substitutions'),
      );
    // `${s:offset}` / `${s:offset:length}`: both are arithmetic.
    if (k.type === ':') {
      const operand = kids[i + 1];
      if (
        // Stryker disable next-line OptionalChaining: the closing brace at least follows the colon
        operand?.isNamed &&
        !(LITERAL_ARITHMETIC.has(operand.type) && literalArithmeticNode(operand))
      )
        out.push(arithmetic('${name:offset:length}'));
    }
    // `${NAME:=value}` assigns NAME.
    if ((k.type === '=' || k.type === ':=') && first && isCodeVariable(first.text))
      // Stryker disable next-line StringLiteral: an anything's reason is not shown (the command counts as any program)
      out.push(anything(`\${${first.text}${k.type}...} sets a variable bash runs code from`));
  }
  return out;
}

/** `{name}` or `{name[i]}` before a redirection operator (`{a,b}>f` is a brace expansion). */
const REDIRECT_VARIABLE = /^\{[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\}$/s;

/** `{name}>file` stores a descriptor in the variable `name`: a redirection, not a word. */
export function redirectVariable(n: Node, src: string): boolean {
  return REDIRECT_VARIABLE.test(n.text) && '<>'.includes(src[n.endIndex] ?? ' ');
}

/** What one node makes bash run from data, judged on its own (its children are visited too). */
function atNode(n: Node, src: string): Unwrapped[] {
  switch (n.type) {
    case 'arithmetic_expansion':
      return literalArithmeticNode(n) ? [] : [arithmetic('$((...))')];
    case 'command_substitution':
      // In a here-document the grammar reads `$((x))` as a command x in a subshell; bash reads arithmetic.
      return n.text.startsWith('$((') ? [arithmetic('$((...))')] : [];
    case 'compound_statement':
      // Stryker disable next-line OptionalChaining: a compound statement has its opening token
      return n.children[0]?.type === '((' && !literalArithmeticNode(n)
        ? [arithmetic('((...))')]
        : [];
    case 'c_style_for_statement': {
      const header = n.namedChildren.filter(
        (c) => c.type !== 'do_group' && c.type !== 'compound_statement',
      );
      return header.every((c) => LITERAL_ARITHMETIC.has(c.type) && literalArithmeticNode(c))
        ? []
        : [arithmetic('for ((...))')];
    }
    case 'subscript': {
      // An indexed array's subscript is arithmetic (an associative one's is not, but which one a
      // name is, is not known here).
      const index = n.childForFieldName('index');
      return !index || index.type === 'number' || /^[@*]$/.test(index.text)
        ? []
        : [arithmetic(`the subscript of ${n.text}`)];
    }
    case 'array':
      // `a=([i]=v)`: the index is arithmetic too.
      return n.namedChildren.some(
        (c) => /^\[.*\]\+?=/s.test(c.text) && !/^\[\d+\]\+?=/.test(c.text),
      )
        ? [arithmetic('an array index [i]=')]
        : [];
    case 'expansion':
      return expansion(n);
    case 'test_command':
      // Stryker disable next-line OptionalChaining: a test command has its opening bracket
      return n.children[0]?.type === '[['
        ? doubleBracket(n, src)
        : testRunsData(bracketWords(n.children.slice(1, -1), src));
    case 'command': {
      // The program as bash reads it: `'test'`, `\test` and `"["` are test and [ too.
      const [program] = wordsOf(n.childrenForFieldName('name'), src);
      if (program !== 'test' && program !== '[') return [];
      const args = n.childrenForFieldName('argument').filter((c) => !redirectVariable(c, src));
      return testRunsData(args.map((c) => testWord(c, src)));
    }
    case 'for_statement': {
      const code = n.childrenForFieldName('variable').filter((v) => isCodeVariable(v.text));
      // Stryker disable next-line StringLiteral: an anything's reason is not shown (the command counts as any program)
      return code.map((v) => anything(`for ${v.text} in ... sets a variable bash runs code from`));
    }
    // The grammar reads `{name}` and `{name[i]}` as a concatenation (`{`, the name, `}`), never one word.
    case 'concatenation': {
      if (!redirectVariable(n, src)) return [];
      const name = n.text.slice(1, -1);
      // A name without a subscript is plain (REDIRECT_VARIABLE).
      return plainName(name) ? [] : [arithmetic(`{${name}}>`)];
    }
    default:
      return [];
  }
}

/** `[[ ... ]]`: arithmetic comparisons and `-v NAME`. */
function doubleBracket(n: Node, src: string): Unwrapped[] {
  for (const e of n.descendantsOfType(['binary_expression', 'unary_expression'])) {
    // Stryker disable next-line ConditionalExpression: descendantsOfType lists nodes, never null
    if (!e) continue;
    // Stryker disable next-line OptionalChaining: the grammar gives every binary and unary expression its operator
    const op = e.childForFieldName('operator')?.text;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: only a binary expression has -eq and the like as its operator, and has(undefined) is false
    if (e.type === 'binary_expression' && op && ARITHMETIC_TESTS.has(op)) {
      const sides = [...e.childrenForFieldName('left'), ...e.childrenForFieldName('right')];
      // A literal integer: `1`, `"1"`, or `-1` (which the grammar reads as a unary expression).
      // A computed word (null) is read as "null", no integer.
      const integer = (s: Node) =>
        INTEGER.test(s.text) || INTEGER.test(String(wordsOf([s], src)[0]));
      if (!sides.every(integer)) return [arithmetic(`[[ ${op} ]]`)];
    }
    // Stryker disable next-line ConditionalExpression: only a unary expression has -v as its operator
    if (e.type === 'unary_expression' && op === '-v') {
      const operand = e.namedChildren.find((c) => c.type !== 'test_operator');
      // Inside [[ ]] nothing is a glob: `a[0]` written plainly is that name.
      const plain =
        operand && (PLAIN_NAME.test(operand.text) || plainName(wordsOf([operand], src)[0]));
      if (!plain) return [asName('[[ -v ]]')];
    }
  }
  return [];
}

/** Everything in a parsed command that makes bash run code held in data. */
export function dataCode(root: Node, src: string): Unwrapped[] {
  const out: Unwrapped[] = [];
  const visit = (n: Node): void => {
    out.push(...atNode(n, src));
    for (const c of n.namedChildren) visit(c);
  };
  visit(root);
  return out;
}

import type { Node } from 'web-tree-sitter';
import type { BashParser } from './bash-parser';
import { builtinFor } from './bash-builtins';
import { dataCode, isCodeVariable, redirectVariable } from './bash-data-code';
import { WordBuilder, wordsOf, type WordValue } from './bash-words';
import { wrapperFor, type Assignment, type Unwrapped } from './bash-wrappers';
import { BASH_MAX_CHARS, BASH_MAX_DEPTH } from './constants';

// What a shell command will run, read with bash's grammar: every simple command anywhere in the
// tree (lists, pipelines, subshells, groups, if/while/until/for/case, function bodies, command and
// process substitutions, here-documents with an unquoted delimiter, redirection targets), and
// through them the commands wrappers run and the source `sh -c`, `eval`, `trap` and `alias` parse
// again (bash-wrappers.ts), and where bash runs code held in data (bash-data-code.ts,
// bash-builtins.ts). The permission rules judge this, never the raw text.

export interface JudgedCommand {
  /** From the program name on, as bash passes them (quotes removed); null where computed at run time. */
  words: WordValue[];
  /** The NAME=value assignments it runs with (before it, or given to env / sudo). */
  assignments: Assignment[];
  /** Arguments that only exist at run time may follow the words (xargs appends its input). */
  moreArgs: boolean;
}

export interface BashAnalysis {
  commands: JudgedCommand[];
  /** Why some of it could not be judged (a syntax error, too deep, a construct not read); empty if none. */
  unjudged: string[];
  /** Files written by redirection (`> file`; null where the name is computed). */
  writes: WordValue[];
}

/** A command whose program is computed at run time: it may be any program, with any arguments. */
const ANYTHING: JudgedCommand = { words: [null], assignments: [], moreArgs: true };

/** Nodes made of statements, words (scanned for substitutions) and redirections. */
const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'case_statement',
  'case_item',
  'do_group',
  'negated_command',
  'test_command',
  'redirected_statement',
  // What the grammar could read around a syntax error: bash runs what comes before it.
  'ERROR',
]);

/** Nodes that run nothing themselves; only a command or process substitution inside them does. */
const WORDS = new Set([
  // Stryker disable StringLiteral: these occur only inside nodes that are scanned whole (a string,
  // an assignment, an expansion, a test's expression, a here-document's body), never where a
  // statement or a command's word is read, so no input tells their absence apart.
  'translated_string',
  'array',
  'special_variable_name',
  'test_operator',
  'regex',
  'heredoc_content',
  // Stryker restore StringLiteral: (a restore after the last entry would be read by no node, and
  // the disable would last to the end of the file)
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'string_content',
  'concatenation',
  'simple_expansion',
  'expansion',
  'arithmetic_expansion',
  'brace_expression',
  'subscript',
  'variable_name',
  'file_descriptor',
  'extglob_pattern',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'heredoc_start',
  'heredoc_body',
  'heredoc_end',
  'comment',
]);

/** Children of a command that are neither statements nor words. */
const NOT_STATEMENTS = new Set(['command_name', 'variable_assignment', 'comment']);
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** Redirection operators that open a file for writing (the grammar reads `<>` as a syntax error). */
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);
/** Where `>&` copies a descriptor (`>&2`) or closes one (`>&-`); to any other word it writes. */
const DESCRIPTOR = /^(\d+|-)$/;

class Analyzer {
  readonly result: BashAnalysis = { commands: [], unjudged: [], writes: [] };

  constructor(private readonly parser: BashParser) {}

  /** Parses `text` and judges it; `nested` for source another command gives to a shell. */
  source(text: string, depth: number, nested: boolean): void {
    if (depth > BASH_MAX_DEPTH) {
      this.result.unjudged.push(`commands nest more than ${BASH_MAX_DEPTH} levels deep`);
      return;
    }
    if (text.length > BASH_MAX_CHARS) {
      this.result.unjudged.push(`the command is longer than ${BASH_MAX_CHARS} characters`);
      return;
    }
    this.parser.read(text, (tree) => {
      const root = tree.rootNode;
      if (root.hasError) {
        // Bash runs what comes before a syntax error; what a nested shell makes of it is unknown.
        if (nested) this.anything();
        else this.result.unjudged.push(`bash cannot parse it (${syntaxError(root)})`);
      }
      // Stryker disable next-line ArrayDeclaration: data code is only "anything" or "unjudged", no command to give assignments to.
      for (const found of dataCode(root, text)) this.follow(found, [], depth);
      this.statement(root, text, depth);
    });
  }

  private anything(): void {
    this.result.commands.push(ANYTHING);
  }

  private unjudged(why: string): void {
    if (!this.result.unjudged.includes(why)) this.result.unjudged.push(why);
  }

  /** What a wrapper, a builtin or the syntax found to be run, judged in turn. */
  private follow(r: Unwrapped, assignments: Assignment[], depth: number): void {
    if (r.kind === 'anything') this.anything();
    else if (r.kind === 'unjudged') this.unjudged(r.why);
    else if (r.kind === 'source') this.source(r.text, depth + 1, true);
    else {
      for (const a of r.assignments) if (isCodeVariable(a.name)) this.anything();
      this.invoke(r.words, [...assignments, ...r.assignments], r.moreArgs, depth + 1, true);
    }
  }

  private statement(n: Node, src: string, depth: number): void {
    const t = n.type;
    if (t === 'command') this.command(n, src, depth);
    else if (t === 'declaration_command' || t === 'unset_command') {
      // `export X=1`, `declare -x`, `local`, `readonly`, `unset`: builtins, judged as commands.
      for (const c of n.namedChildren) this.scan(c, src, depth);
      const words = wordsOf(n.children, src);
      this.result.commands.push({ words, assignments: [], moreArgs: false });
      // The names and options, each assignment's value left out (`export PATH=$PATH:x` names PATH).
      // Assigning a variable bash runs code from may run anything, also where the builtin stops
      // reading before the name (`declare -i BASH_ENV=x`).
      const named = n.children.flatMap((c) => {
        if (c.type !== 'variable_assignment') return wordsOf([c], src);
        const { name } = assignmentOf(c, src);
        if (isCodeVariable(name)) this.anything();
        return [`${name}=`];
      });
      // Stryker disable next-line BooleanLiteral: `wrapped` changes only how test and [ read their words.
      const builtin = words[0] ? builtinFor(words[0], false) : undefined;
      // Stryker disable next-line ArrayDeclaration: a declaration's builtin finds only "anything" or "unjudged", no command to give assignments to.
      for (const r of builtin?.unwrap(named.slice(1)) ?? []) this.follow(r, [], depth);
    } else if (t === 'variable_assignment' || t === 'variable_assignments') {
      const list = t === 'variable_assignment' ? [n] : n.namedChildren;
      for (const c of list) this.scan(c, src, depth);
      this.result.commands.push({
        words: [],
        assignments: this.assignments(list, src),
        moreArgs: false,
      });
    } else if (t === 'c_style_for_statement') {
      // `for ((i = 0; ...))`: arithmetic, where `i = 0` is no command; then the body.
      for (const c of n.namedChildren)
        if (c.type === 'do_group' || c.type === 'compound_statement') this.statement(c, src, depth);
        else this.scan(c, src, depth);
    } else if (t === 'function_definition') {
      // The body is judged as run: the function may be called, here or by a later command.
      for (const c of n.childrenForFieldName('body')) this.statement(c, src, depth);
    } else if (REDIRECTS.has(t)) this.redirect(n, src, depth);
    else if (CONTAINERS.has(t)) for (const c of n.namedChildren) this.statement(c, src, depth);
    else if (WORDS.has(t) || SUBSTITUTIONS.has(t)) this.scan(n, src, depth);
    else this.unknown(n, src, depth);
  }

  /**
   * A node of a type not handled above: every named node of the grammar shipped is (its
   * node-types.json); one a newer grammar adds is not judged, and what is inside it still is.
   */
  // Stryker disable all: no node of the grammar shipped reaches this.
  private unknown(n: Node, src: string, depth: number): void {
    this.result.unjudged.push(`the construct "${n.type}" is not judged`);
    for (const c of n.namedChildren) this.statement(c, src, depth);
  }
  // Stryker restore all

  /** Judges the commands inside substitutions anywhere within a node. */
  private scan(n: Node, src: string, depth: number): void {
    if (SUBSTITUTIONS.has(n.type)) {
      for (const c of n.namedChildren) this.statement(c, src, depth);
      return;
    }
    // Bash runs the backquotes inside ${...} and in the body of a here-document whose delimiter
    // is unquoted, but the grammar leaves them there as text (a body with no $ in it is text
    // alone): their commands are parsed here.
    if (n.type === 'expansion' || (n.type === 'heredoc_body' && expandedBody(n)))
      for (const inner of backquoted(textOutsideSubstitutions(n, src)))
        this.source(inner, depth + 1, true);
    for (const c of n.namedChildren) this.scan(c, src, depth);
  }

  private redirect(n: Node, src: string, depth: number): void {
    if (n.type !== 'file_redirect') {
      for (const c of n.namedChildren) this.statement(c, src, depth);
      return;
    }
    for (const c of n.namedChildren) this.scan(c, src, depth);
    // Stryker disable next-line OptionalChaining,StringLiteral: a file redirection always has its operator.
    const op = n.children.find((c) => !c.isNamed)?.type ?? '';
    const target = n.childrenForFieldName('destination');
    if (!WRITE_OPS.has(op) || !target.length) return;
    const [name = null] = wordsOf(target, src);
    // `> 1` and `> -` write files named 1 and -; only `>&` reads them as descriptors.
    if (name === '/dev/null' || (op === '>&' && name !== null && DESCRIPTOR.test(name))) return;
    this.result.writes.push(name);
  }

  /** The assignments' words; one that makes bash run hidden code may run anything. */
  private assignments(nodes: readonly Node[], src: string): Assignment[] {
    const out = nodes.map((a) => assignmentOf(a, src));
    for (const a of out) if (isCodeVariable(a.name)) this.anything();
    return out;
  }

  private command(n: Node, src: string, depth: number): void {
    for (const c of n.namedChildren) {
      if (WORDS.has(c.type) || NOT_STATEMENTS.has(c.type)) this.scan(c, src, depth);
      // A redirection, or a statement where a word was expected (`coproc (rm x)`): judged, and
      // the word is computed.
      else this.statement(c, src, depth);
    }
    const { assignments, words } = commandWords(n, src);
    // `{r,}m x`: a `{` glued to the command's first word is a brace expansion of that word (bash
    // reserves `{` only as a word of its own), which the grammar takes for a group it cannot
    // close, starting the command after it: the program is computed.
    if (src[n.startIndex - 1] === '{') words.splice(0, 1, null);
    for (const a of assignments) if (isCodeVariable(a.name)) this.anything();
    this.invoke(words, assignments, false, depth, false);
  }

  /**
   * One simple command: judged, and what it runs when it is a wrapper or a builtin that runs
   * code. `wrapped`: its words came through a wrapper (`command test ...`), not from the tree.
   */
  private invoke(
    words: WordValue[],
    assignments: Assignment[],
    moreArgs: boolean,
    depth: number,
    wrapped: boolean,
  ): void {
    if (depth > BASH_MAX_DEPTH) {
      this.unjudged(`commands nest more than ${BASH_MAX_DEPTH} levels deep`);
      return;
    }
    const program = words[0];
    const wrapper = program ? (wrapperFor(program) ?? builtinFor(program, wrapped)) : undefined;
    const inner = wrapper ? wrapper.unwrap(words.slice(1)) : [];
    if (!wrapper?.transparent || !inner.length)
      this.result.commands.push({ words, assignments, moreArgs });
    for (const r of inner) this.follow(r, assignments, depth);
  }
}

/** The commands between backquotes in here-document text (`\`` is a quoted backquote). */
function backquoted(text: string): string[] {
  const out: string[] = [];
  let open = -1;
  // Stryker disable next-line EqualityOperator: past the end text[i] is undefined and matches nothing.
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') {
      if (open === -1) open = i + 1;
      else {
        out.push(text.slice(open, i));
        open = -1;
      }
    }
  }
  return out;
}

/** Whether bash expands a here-document's body: its delimiter has no quote and no backslash. */
function expandedBody(body: Node): boolean {
  // The grammar puts a body only in a heredoc_redirect, after its heredoc_start.
  const start = body.parent!.children.find((c) => c.type === 'heredoc_start')!;
  return !/['"\\]/.test(start.text);
}

/**
 * `n`'s text, each substitution or ${...} in it (judged from the tree, where a backquote in it
 * is found too) read as a word computed at run time.
 */
function textOutsideSubstitutions(n: Node, src: string): string {
  // Stryker disable next-line StringLiteral: text with no backquote or backslash before `n`'s changes nothing backquoted() finds.
  let out = '';
  let at = n.startIndex;
  for (const c of n.namedChildren)
    if (SUBSTITUTIONS.has(c.type) || c.type === 'expansion') {
      out += `${src.slice(at, c.startIndex)}\${_}`;
      at = c.endIndex;
    }
  return out + src.slice(at, n.endIndex);
}

function assignmentOf(n: Node, src: string): Assignment {
  // Stryker disable next-line OptionalChaining,StringLiteral: an assignment always has its name.
  return { name: n.childForFieldName('name')?.text ?? '', word: wordsOf([n], src)[0] ?? null };
}

/**
 * A simple command's assignments and words (program first). With `star`, an unquoted `*` word
 * alone is STAR (a rule pattern's "any words") instead of a glob.
 */
export function commandWords(
  n: Node,
  src: string,
  star = false,
): { assignments: Assignment[]; words: WordValue[] } {
  const assignments: Assignment[] = [];
  const words = new WordBuilder(src);
  let prev: Node | null = null;
  for (const c of n.children) {
    if (c.type === 'variable_assignment') assignments.push(assignmentOf(c, src));
    // `{fd}>file` names the variable that gets the descriptor: part of the redirection.
    const skip = REDIRECTS.has(c.type) || redirectVariable(c, src);
    if (skip || (NOT_STATEMENTS.has(c.type) && c.type !== 'command_name')) {
      if (prev) blankWordAfter(words, src, prev.endIndex);
      words.brk();
      prev = null;
    } else if (star && c.type === 'word' && c.text === '*') {
      words.brk();
      words.star();
      prev = null;
    } else {
      if (prev) words.unquoted(src.slice(prev.endIndex, c.startIndex));
      else {
        words.brk();
        if (escapedBlankBefore(src, c.startIndex)) words.runtime();
      }
      words.node(c);
      prev = c;
    }
  }
  if (prev) blankWordAfter(words, src, prev.endIndex);
  return { assignments, words: words.words() };
}

// The grammar reads a backslash-escaped blank before a command's first word, or after its last
// (before a redirection or the end), as white space; bash reads it as a word, or as the start of
// the next one: `x \ ` runs x with a blank argument, `\<tab>rm` runs a program named <tab>rm.
// Such a word is not judged as written: it counts as computed at run time.

/**
 * Whether the blank just before `at` is escaped (an odd run of backslashes before it). charAt is
 * '' before the start, so the text's start needs no bound of its own.
 */
function escapedBlankBefore(src: string, at: number): boolean {
  if (!/[ \t]/.test(src.charAt(at - 1))) return false;
  let slashes = 0;
  for (let i = at - 2; src.charAt(i) === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}

/** An escaped blank after the word that ends at `end` is a word of its own, computed. */
function blankWordAfter(words: WordBuilder, src: string, end: number): void {
  if (!/^[ \t]*\\[ \t]/.test(src.slice(end, end + 256))) return;
  words.brk();
  words.runtime();
  words.brk();
}

/** Where the first syntax error is, for the reason shown to the user. */
function syntaxError(root: Node): string {
  const bad = root.descendantsOfType(['ERROR'])[0] ?? findMissing(root);
  // A tree with an error holds an ERROR or a MISSING node, and findMissing reaches the latter.
  // Stryker disable next-line ConditionalExpression,StringLiteral: never reached, as said above.
  if (!bad) return 'a syntax error';
  return bad.isMissing
    ? `"${bad.type}" missing at character ${bad.startIndex + 1}`
    : `near "${bad.text.slice(0, 40)}" at character ${bad.startIndex + 1}`;
}

function findMissing(n: Node): Node | null {
  if (n.isMissing) return n;
  for (const c of n.children) {
    // Stryker disable next-line ConditionalExpression: a child without an error holds no MISSING node.
    const m = c.hasError || c.isMissing ? findMissing(c) : null;
    if (m) return m;
  }
  return null;
}

/** Every command `text` will run, as far as bash's grammar tells. */
export function analyzeBash(parser: BashParser, text: string): BashAnalysis {
  const a = new Analyzer(parser);
  a.source(text, 0, false);
  return a.result;
}

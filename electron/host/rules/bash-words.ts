import type { Node } from 'web-tree-sitter';

// The words bash passes to a program, read from the syntax tree: quotes and escapes removed, and
// null for a word whose value only exists at run time (a parameter, command or arithmetic
// expansion, a glob that may match files, a brace expansion that makes several words, `$'...'`
// and `$"..."`). A tilde is kept as written: it expands to a home directory, never to a program
// name or an option, so `~/bin/x` stays literal.
//
// Words are built from the source text between the tree's nodes too, not from the nodes alone:
// tree-sitter-bash leaves some characters of a word outside every node (the `\ ` of `a\ b`, a
// `\` + newline line continuation), and bash reads them as part of the word.

/** A word's value, or null when it is computed at run time. */
export type WordValue = string | null;

/** A rule pattern's `*` word: any run of words (never a word bash passes). */
export const STAR = '\u0000*';

/** Node types whose text is unquoted bash source, read with backslash escapes. */
// Stryker disable next-line StringLiteral: a file_descriptor (the 2 of 2>f) is only ever a redirection's, whose words are not read; kept so no node of unquoted text is read as computed
const LITERAL_NODES = new Set(['word', 'number', 'variable_name', 'file_descriptor']);
/** Node types made of their children and the source between them. */
const JOINED_NODES = new Set(['concatenation', 'command_name', 'variable_assignment']);

const BLANK = /[ \t\n]/;

/** Accumulates characters into words; `active` marks the unquoted ones (those globs and braces act on). */
export class WordBuilder {
  private readonly out: WordValue[] = [];
  private text = '';
  private active: boolean[] = [];
  private computed = false;
  private open = false;

  /** `source`: the whole text the nodes were parsed from. */
  constructor(private readonly source: string) {}

  /** Ends the current word, if one was started. */
  brk(): void {
    if (!this.open) return;
    this.out.push(this.computed || expands(this.text, this.active) ? null : this.text);
    this.text = '';
    this.active = [];
    this.computed = false;
    this.open = false;
  }

  private put(text: string, active: boolean): void {
    this.open = true;
    this.text += text;
    for (let i = 0; i < text.length; i++) this.active.push(active);
  }

  /** Marks the current word as computed at run time (or read otherwise than bash reads it). */
  runtime(): void {
    this.open = true;
    this.computed = true;
  }

  /** A pattern's STAR, as a word of its own. */
  star(): void {
    this.brk();
    this.out.push(STAR);
  }

  /** Unquoted source: `\x` is a quoted x, `\` + newline vanishes, a blank ends the word. */
  unquoted(src: string): void {
    for (let i = 0; i < src.length; i++) {
      const c = src[i]!;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: unquoted text never ends in a lone backslash (the grammar makes a trailing one an error node of its own)
      if (c === '\\' && i + 1 < src.length) {
        i++;
        if (src[i] !== '\n') this.put(src[i]!, false);
      } else if (BLANK.test(c)) this.brk();
      else this.put(c, true);
    }
  }

  /** The inside of a double-quoted string: only \$ \` \" \\ and \newline are escapes. */
  private doubleQuoted(src: string): void {
    let s = '';
    for (let i = 0; i < src.length; i++) {
      const c = src[i]!;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a backslash is never last inside double quotes (it would escape the closing one)
      if (c === '\\' && i + 1 < src.length && '$`"\\\n'.includes(src[i + 1]!)) {
        i++;
        if (src[i] !== '\n') s += src[i];
      } else s += c;
    }
    this.put(s, false);
  }

  /** One node of a word, and (for joined nodes) the source between its children. */
  node(n: Node): void {
    if (LITERAL_NODES.has(n.type)) this.unquoted(n.text);
    else if (n.type === 'raw_string') this.put(n.text.slice(1, -1), false);
    else if (n.type === 'string') {
      // `$"..."` is translated by the locale; any expansion inside is computed. (The grammar
      // gives that `$` a node of its own, computed already: the test only guards against a
      // grammar that folds it into the string.)
      // Stryker disable next-line MethodExpression: see above
      if (n.text.startsWith('$') || n.namedChildren.some((c) => c.type !== 'string_content'))
        this.runtime();
      else this.doubleQuoted(n.text.slice(1, -1));
    } else if (JOINED_NODES.has(n.type)) this.sequence(n.children);
    // Stryker disable next-line BooleanLiteral: the one other unnamed node of a word is an assignment's `=`, which neither globs nor braces
    else if (!n.isNamed && n.type !== '$') this.put(n.text, true);
    else this.runtime();
  }

  /** Sibling nodes of one or more words, with the source between them read as unquoted text. */
  sequence(nodes: readonly Node[]): void {
    let end = -1;
    for (const n of nodes) {
      // Stryker disable next-line ConditionalExpression,UnaryOperator: before the first node slice(-1, start) is empty anyway (a node starts at most at the source's last index)
      if (end !== -1) this.unquoted(this.source.slice(end, n.startIndex));
      this.node(n);
      end = n.endIndex;
    }
  }

  /** The words, once the last one is ended. */
  words(): WordValue[] {
    this.brk();
    return this.out;
  }
}

/**
 * Whether bash expands an unquoted part of the word into something else: `*`, `?` or a `[...]`
 * (pathname expansion), or `{a,b}` / `{1..3}` (brace expansion; `{}` and `{x}` stay as written).
 */
function expands(text: string, active: boolean[]): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!active[i]) continue;
    const c = text[i];
    if (c === '*' || c === '?') return true;
    if (c === '[' && text.indexOf(']', i + 1) !== -1) return true;
    if (c === '{') {
      const close = text.indexOf('}', i + 1);
      if (close === -1) continue;
      const inner = text.slice(i + 1, close);
      if (inner.includes(',') || inner.includes('..')) return true;
    }
  }
  return false;
}

/** The words of sibling nodes, split where bash splits them. */
export function wordsOf(nodes: readonly Node[], source: string): WordValue[] {
  const b = new WordBuilder(source);
  b.sequence(nodes);
  return b.words();
}

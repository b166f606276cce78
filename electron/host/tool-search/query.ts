import { MAX_SELECT_NAMES } from './constants';

// The tool_search query language (seed): `select:a,b` fetches tools by exact name; anything else is
// keywords for a fuzzy search, where a `+` prefix makes a term required.

export type ParsedQuery =
  | { kind: 'select'; names: string[] }
  | { kind: 'keywords'; raw: string; required: string[]; optional: string[] };

/** Words that carry no meaning for finding a tool; dropped unless marked required. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'any',
  'by',
  'can',
  'do',
  'for',
  'from',
  'i',
  'in',
  'into',
  'is',
  'it',
  'me',
  'my',
  'of',
  'on',
  'or',
  'some',
  'that',
  'the',
  'this',
  'to',
  'tool',
  'tools',
  'want',
  'with',
]);

export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  if (/^select:/i.test(trimmed)) {
    const names = trimmed
      .slice('select:'.length)
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
    return { kind: 'select', names: [...new Set(names)].slice(0, MAX_SELECT_NAMES) };
  }
  const required: string[] = [];
  const optional: string[] = [];
  for (const word of trimmed.split(/\s+/)) {
    const isRequired = word.startsWith('+');
    const term = normalizeTerm(isRequired ? word.slice(1) : word);
    if (!term) continue;
    if (isRequired) required.push(term);
    else if (!STOP_WORDS.has(term)) optional.push(term);
  }
  return { kind: 'keywords', raw: trimmed, required, optional };
}

/** Lower case, punctuation trimmed from the ends (keeps `_` and `-` inside tool names). */
export function normalizeTerm(word: string): string {
  return word.toLowerCase().replace(/^[^a-z0-9_]+|[^a-z0-9_]+$/g, '');
}

/** A light plural/verb-form fold so "files" meets "file" and "creates" meets "create". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits a tool name or a description into stemmed words: `mcp__gh__createPullRequest` -> gh, create, pull, request. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map(stem);
}

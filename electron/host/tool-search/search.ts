import type { AnyTool } from '../tools/tool';
import { parseQuery, words } from './query';
import { SearchIndex, splitToolName, withinEdits, type IndexedTool } from './search-index';

// Keyword scoring of tool_search. An exact tool name wins outright (users rely on "a query naming a
// tool exactly must find it"). Otherwise each query word counts once, by its best match in the
// tool, weighted by how rare the word is among the granted tools: covering more of the query beats
// matching one word twice, a word in the tool's name counts a little more than one in its
// description, and synonyms, one-letter typos and substrings count for less than the word itself.
const W_EXACT_NAME = 1000;
const W_PHRASE_NAME = 60;
const W_NAME_WORD = 1.5;
const W_DESC_WORD = 1;
const W_NAME_SYNONYM = 0.8;
const W_DESC_SYNONYM = 0.6;
const W_NAME_TYPO = 0.7;
const W_SUBSTRING = 0.4;
const W_SERVER_WORD = 0.5;
/** Typos are only forgiven in words this long: short words are too close to each other. */
const TYPO_MIN_LENGTH = 5;
const SUBSTRING_MIN_LENGTH = 4;

interface QueryWord {
  word: string;
  idf: number;
  synonyms: readonly string[];
}

export interface SearchOutcome {
  tools: AnyTool[];
  /** `select:` names that are not among the searchable tools. */
  notFound: string[];
}

/**
 * Runs a tool_search query over `tools` (only what the agent was granted) and returns at most
 * `max`. Pass a SearchIndex to reuse one across queries over the same tools.
 */
export function searchTools(
  tools: readonly AnyTool[] | SearchIndex,
  query: string,
  max: number,
): SearchOutcome {
  const parsed = parseQuery(query);
  if (parsed.kind === 'select')
    return selectByName(
      tools instanceof SearchIndex ? tools.entries.map((e) => e.tool) : tools,
      parsed.names,
      max,
    );

  const index = tools instanceof SearchIndex ? tools : new SearchIndex(tools);
  const raw = parsed.raw.toLowerCase();
  const phrase = raw.replace(/[\s-]+/g, '_');
  const terms = [...parsed.required, ...parsed.optional];
  const queryWords: QueryWord[] = [...new Set(terms.flatMap(words))].map((word) => ({
    word,
    idf: index.idf(word),
    synonyms: [...(index.synonyms.get(word) ?? [])],
  }));
  const scored: { entry: IndexedTool; score: number }[] = [];
  for (const entry of index.entries) {
    if (!parsed.required.every((t) => literalMatch(entry, t))) continue;
    let score = 0;
    if (
      raw === entry.fullLower ||
      raw === entry.bareLower ||
      terms.some((t) => t === entry.fullLower || t === entry.bareLower)
    )
      score += W_EXACT_NAME;
    else if (phrase === entry.bareLower) score += W_PHRASE_NAME;
    for (const q of queryWords) score += q.idf * bestMatch(entry, q);
    if (score > 0) scored.push({ entry, score });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.entry.fullLower.length - b.entry.fullLower.length ||
      a.entry.fullLower.localeCompare(b.entry.fullLower),
  );
  return { tools: scored.slice(0, max).map((s) => s.entry.tool), notFound: [] };
}

function selectByName(tools: readonly AnyTool[], names: string[], max: number): SearchOutcome {
  const found: AnyTool[] = [];
  const notFound: string[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const exact =
      tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === lower);
    // A bare MCP tool name is accepted when exactly one server has it.
    const bare = exact
      ? []
      : tools.filter((t) => splitToolName(t.name).bare.toLowerCase() === lower);
    const tool = exact ?? (bare.length === 1 ? bare[0] : undefined);
    if (tool && !found.includes(tool)) found.push(tool);
    else if (!tool) notFound.push(name);
  }
  return { tools: found.slice(0, max), notFound };
}

/** A required (`+`) term must literally appear in the name or the description. */
function literalMatch(entry: IndexedTool, term: string): boolean {
  if (entry.fullLower.includes(term) || entry.descLower.includes(term)) return true;
  const parts = words(term);
  return (
    parts.length > 0 &&
    parts.every((w) => entry.nameWords.has(w) || entry.descWords.has(w) || entry.serverWords.has(w))
  );
}

function bestMatch(entry: IndexedTool, { word, synonyms }: QueryWord): number {
  if (entry.nameWords.has(word)) return W_NAME_WORD;
  if (entry.descWords.has(word)) return W_DESC_WORD;
  if (synonyms.some((s) => entry.nameWords.has(s))) return W_NAME_SYNONYM;
  if (synonyms.some((s) => entry.descWords.has(s))) return W_DESC_SYNONYM;
  if (word.length >= TYPO_MIN_LENGTH) {
    for (const n of entry.nameWords)
      if (n.length >= TYPO_MIN_LENGTH && withinEdits(word, n, 1)) return W_NAME_TYPO;
  }
  if (entry.serverWords.has(word)) return W_SERVER_WORD;
  if (
    word.length >= SUBSTRING_MIN_LENGTH &&
    (entry.bareLower.includes(word) || entry.descLower.includes(word))
  )
    return W_SUBSTRING;
  return 0;
}

import type { AnyTool } from '../tools/tool';
import { parseQuery, words } from './query';
import { SearchIndex, splitToolName, withinEdits, type IndexedTool } from './search-index';

// Keyword scoring of tool_search. Weights: an exact tool name wins outright (users rely on "a query
// naming a tool exactly must find it"); then words of the tool's own name, weighted by rarity; then
// words of its description; synonyms and one-letter typos count for less than the word itself.
const W_EXACT_NAME = 1000;
const W_PHRASE_NAME = 60;
const W_NAME_WORD = 10;
const W_NAME_SYNONYM = 5;
const W_NAME_TYPO = 4;
const W_NAME_SUBSTRING = 3;
const W_SERVER_WORD = 4;
const W_DESC_WORD = 3;
const W_DESC_SYNONYM = 1.5;
const W_DESC_SUBSTRING = 1;
/** Typos are only forgiven in words this long: short words are too close to each other. */
const TYPO_MIN_LENGTH = 5;
const SUBSTRING_MIN_LENGTH = 3;

export interface SearchOutcome {
  tools: AnyTool[];
  /** `select:` names that are not among the searchable tools. */
  notFound: string[];
}

/** Runs a tool_search query over `tools` (only what the agent was granted) and returns at most `max`. */
export function searchTools(tools: readonly AnyTool[], query: string, max: number): SearchOutcome {
  const parsed = parseQuery(query);
  if (parsed.kind === 'select') return selectByName(tools, parsed.names, max);

  const index = new SearchIndex(tools);
  const raw = parsed.raw.toLowerCase();
  const phrase = raw.replace(/[\s-]+/g, '_');
  const scored: { entry: IndexedTool; score: number }[] = [];
  for (const entry of index.entries) {
    if (!parsed.required.every((t) => literalMatch(entry, t))) continue;
    let score = 0;
    if (raw === entry.fullLower || raw === entry.bareLower) score += W_EXACT_NAME;
    else if (phrase === entry.bareLower) score += W_PHRASE_NAME;
    for (const term of [...parsed.required, ...parsed.optional]) score += termScore(index, entry, term);
    if (score > 0) scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || a.entry.fullLower.length - b.entry.fullLower.length || a.entry.fullLower.localeCompare(b.entry.fullLower));
  return { tools: scored.slice(0, max).map((s) => s.entry.tool), notFound: [] };
}

function selectByName(tools: readonly AnyTool[], names: string[], max: number): SearchOutcome {
  const found: AnyTool[] = [];
  const notFound: string[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const exact = tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === lower);
    // A bare MCP tool name is accepted when exactly one server has it.
    const bare = exact ? [] : tools.filter((t) => splitToolName(t.name).bare.toLowerCase() === lower);
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
  return parts.length > 0 && parts.every((w) => entry.nameWords.has(w) || entry.descWords.has(w) || entry.serverWords.has(w));
}

function termScore(index: SearchIndex, entry: IndexedTool, term: string): number {
  if (term === entry.fullLower || term === entry.bareLower) return W_EXACT_NAME;
  let score = 0;
  for (const w of words(term)) {
    const idf = index.idf(w);
    const synonyms = index.synonyms.get(w);
    let name = 0;
    if (entry.nameWords.has(w)) name = W_NAME_WORD * idf;
    else if (synonyms && [...synonyms].some((s) => entry.nameWords.has(s))) name = W_NAME_SYNONYM * idf;
    else if (w.length >= TYPO_MIN_LENGTH && [...entry.nameWords].some((n) => n.length >= TYPO_MIN_LENGTH && withinEdits(w, n, 1))) name = W_NAME_TYPO * idf;
    else if (w.length >= SUBSTRING_MIN_LENGTH && entry.bareLower.includes(w)) name = W_NAME_SUBSTRING * idf;
    let desc = 0;
    if (entry.descWords.has(w)) desc = W_DESC_WORD * idf;
    else if (synonyms && [...synonyms].some((s) => entry.descWords.has(s))) desc = W_DESC_SYNONYM * idf;
    else if (w.length > SUBSTRING_MIN_LENGTH && entry.descLower.includes(w)) desc = W_DESC_SUBSTRING * idf;
    const server = entry.serverWords.has(w) ? W_SERVER_WORD : 0;
    score += name + desc + server;
  }
  return score;
}

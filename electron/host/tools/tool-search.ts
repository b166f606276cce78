import { z } from 'zod';
import { defineTool, type AnyTool } from './tool';
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_CAP, TOOL_SEARCH_NAME } from '../tool-search/constants';
import { searchTools } from '../tool-search/search';
import { SearchIndex } from '../tool-search/search-index';
import { toolSchema } from '../tool-search/tool-schema';

const parameters = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'query is empty: give `select:name_a,name_b` or keywords')
    .describe(
      '`select:tool_a,tool_b` fetches those tools by exact name; otherwise keywords for a fuzzy search, where a `+` prefix makes a term required',
    ),
  max_results: z
    .number()
    .optional()
    .describe(
      `How many matches to return (default ${DEFAULT_MAX_RESULTS}, clamped to 1..${MAX_RESULTS_CAP})`,
    ),
});

export function clampMaxResults(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_MAX_RESULTS;
  return Math.min(MAX_RESULTS_CAP, Math.max(1, Math.trunc(n)));
}

export interface ToolSearchScope {
  /** Every deferrable tool the agent was granted: the only thing search may return (never widens scope). */
  searchable: readonly AnyTool[];
  /** Names still deferred this step: listed in the description so the model knows what exists. */
  deferredNames: readonly string[];
}

/**
 * tool_search for one agent and step. It is built by applyDeferral (tool-search/deferral.ts) over
 * the granted set, which is why it is not a static entry of the built-in registry: its scope and
 * its list of deferred names are the binding's, not global.
 */
export function createToolSearchTool(scope: ToolSearchScope): AnyTool {
  const names = scope.deferredNames.length
    ? scope.deferredNames.join('\n')
    : '(none: every deferred tool is loaded)';
  // Built on the first search only: most steps never search.
  let index: SearchIndex | null = null;
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description:
      'Fetches the full JSON schemas of deferred tools, which makes them callable. The tools below exist but are not ' +
      'loaded: their schemas are left out to save context. Query `select:name_a,name_b` to load tools by exact name, ' +
      'or keywords to search names and descriptions (`+term` makes a term required). Matches become callable on your next step.\n\n' +
      `Deferred tools:\n${names}`,
    parameters,
    flags: { readOnly: true, approval: 'none' },
    async run(_ctx, args) {
      const max = clampMaxResults(args.max_results);
      index ??= new SearchIndex(scope.searchable);
      const { tools, notFound } = searchTools(index, args.query, max);
      return {
        kind: 'tool_search',
        query: args.query,
        tools: tools.map(toolSchema),
        ...(notFound.length ? { not_found: notFound } : {}),
        searched: scope.searchable.length,
        message: tools.length
          ? `${tools.length} tool schema${tools.length === 1 ? '' : 's'} loaded: ${tools.map((t) => t.name).join(', ')}`
          : `No deferred tool matched '${args.query}'. Try other keywords, or select: with a name from the list.`,
      };
    },
  }) as AnyTool;
}

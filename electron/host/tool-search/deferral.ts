import type { AnyTool } from '../tools/tool';
import { createToolSearchTool } from '../tools/tool-search';
import { BYTES_PER_TOKEN, TOOL_SEARCH_NAME } from './constants';
import { schemaBytes } from './tool-schema';

// Deferral (agent.tool_search):
//   off   every granted tool is bound with its schema; no tool_search.
//   on    every deferrable tool is deferred as soon as there is one.
//   auto  (default) deferrable tools are deferred once there are more than
//         agent.tool_search_threshold of them (25), or, when the model's context window is known,
//         once their schemas would take more than agent.tool_search_context_share (10%) of it,
//         estimated at 4 bytes per token: a few huge schemas defer as surely as many small ones.
// Deferral only engages when the deferrable set is not empty, so a session without MCP servers
// pays nothing; tool_search is bound whenever the deferrable set is not empty, below the threshold
// too. Once engaged, deferred tools reach the model only as names in tool_search's description, and
// the tools it fetched are bound from the next step on.

export type ToolSearchMode = 'auto' | 'on' | 'off';

export interface DeferralInput {
  /** What the agent is granted this step, after every other binding condition and allowed_tools. */
  tools: readonly AnyTool[];
  mode: ToolSearchMode;
  /** agent.tool_search_threshold: auto defers once more than this many tools are deferrable. */
  threshold: number;
  /** The active model's context window in tokens; omit when unknown (the share rule then sleeps). */
  contextWindow?: number;
  /** agent.tool_search_context_share (default 0.1). */
  contextShare?: number;
  /** fetchedFromHistory(session.events(), agentId). */
  fetchedNames: Iterable<string>;
}

export type DeferralReason =
  'off' | 'nothing_deferrable' | 'below_threshold' | 'on' | 'count' | 'context_share';

export interface DeferralResult {
  /** Tools to offer the model this step, with schemas. Includes tool_search when engaged. */
  bound: AnyTool[];
  /** Granted but not offered (their names are in tool_search's description). */
  deferredNames: string[];
  engaged: boolean;
  reason: DeferralReason;
}

const DEFAULT_CONTEXT_SHARE = 0.1;

export function applyDeferral(input: DeferralInput): DeferralResult {
  // tool_search is the binding's own: a granted tool of that name (none should exist) is replaced.
  const tools = input.tools.filter((t) => t.name !== TOOL_SEARCH_NAME);
  const deferrable = tools.filter((t) => t.flags.deferrable);
  const reason = decide(input, deferrable);
  if (reason === 'below_threshold') {
    // Nothing is deferred yet, but tool_search is bound from turn one whenever something is
    // deferrable (seed): it finds a tool among many by what it does, and stays put as the set grows.
    return {
      bound: [...tools, createToolSearchTool({ searchable: deferrable, deferredNames: [] })],
      deferredNames: [],
      engaged: false,
      reason,
    };
  }
  if (reason !== 'on' && reason !== 'count' && reason !== 'context_share') {
    return { bound: [...tools], deferredNames: [], engaged: false, reason };
  }
  const fetched = new Set(input.fetchedNames);
  const bound = tools.filter((t) => !t.flags.deferrable || fetched.has(t.name));
  const deferredNames = deferrable.filter((t) => !fetched.has(t.name)).map((t) => t.name);
  bound.push(createToolSearchTool({ searchable: deferrable, deferredNames }));
  return { bound, deferredNames, engaged: true, reason };
}

function decide(input: DeferralInput, deferrable: readonly AnyTool[]): DeferralReason {
  if (input.mode === 'off') return 'off';
  if (deferrable.length === 0) return 'nothing_deferrable';
  if (input.mode === 'on') return 'on';
  if (deferrable.length > input.threshold) return 'count';
  if (input.contextWindow && input.contextWindow > 0) {
    const budgetBytes =
      input.contextWindow * (input.contextShare ?? DEFAULT_CONTEXT_SHARE) * BYTES_PER_TOKEN;
    if (schemaBytes(deferrable) > budgetBytes) return 'context_share';
  }
  return 'below_threshold';
}

// The API the agent runtime's binding function uses (issue 5). Per step:
//   const fetched = fetchedFromHistory(session.events(), agentId);
//   const { bound, deferredNames } = applyDeferral({ tools: granted, mode: config.agent.tool_search,
//     threshold: config.agent.tool_search_threshold, contextShare: config.agent.tool_search_context_share,
//     contextWindow, fetchedNames: fetched });
// Offer `bound` (tool_search included when deferral engaged), sending each as toolSchema(tool).
// Dispatch calls by name against `bound`. `granted` must already be filtered by allowed_tools and
// every other condition: tool_search is added here, so it is exempt from allowed_tools and searches
// only what was granted.
export {
  applyDeferral,
  type DeferralInput,
  type DeferralResult,
  type ToolSearchMode,
} from './deferral';
export { fetchedFromHistory } from './history';
export { toolSchema, toolInputSchema, schemaBytes, type ToolSchema } from './tool-schema';
export { searchTools } from './search';
export { TOOL_SEARCH_NAME } from './constants';

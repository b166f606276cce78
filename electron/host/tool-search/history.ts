import type { SessionEvent } from '../../../shared/protocol/events';
import { TOOL_SEARCH_NAME } from './constants';

/**
 * Which deferred schemas an agent has fetched, recovered from the session log: every tool_search
 * result the agent got names the tools it loaded. The log is append-only and a compaction event
 * only summarises older turns for the model, so this survives compaction and restarts; nothing
 * is kept in memory.
 */
export function fetchedFromHistory(events: readonly SessionEvent[], agentId = 'root'): Set<string> {
  const fetched = new Set<string>();
  for (const e of events) {
    const got = fetchedBy(e);
    if (got?.agentId === agentId) for (const name of got.names) fetched.add(name);
  }
  return fetched;
}

/** The schemas one event shows an agent fetched (a tool_search result), or null. */
export function fetchedBy(e: SessionEvent): { agentId: string; names: string[] } | null {
  if (e.type !== 'tool_result' || e.name !== TOOL_SEARCH_NAME) return null;
  const tools = (e.payload as { kind: string; tools?: unknown }).tools;
  if (e.payload.kind !== 'tool_search' || !Array.isArray(tools)) return null;
  const names: string[] = [];
  for (const t of tools) {
    const name = (t as { name?: unknown } | null)?.name;
    if (typeof name === 'string') names.push(name);
  }
  return { agentId: e.agent_id, names };
}

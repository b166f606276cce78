import type { AgentConfig } from '../config/schema';
import type { Session } from '../sessions/session';
import type { AnyTool } from '../tools/tool';
import { applyDeferral } from '../tool-search/deferral';
import { fetchedFromHistory } from '../tool-search/history';
import { narrowToHeld } from '../projects/narrow';
import type { McpManager } from './mcp-manager';

// The candidate tools of one run, for the agent loop's ToolSource (agent/run-context.ts): the
// built-ins plus MCP tools, rebuilt whenever the agent's root differs from where the run started
// (after switch_project) and then narrowed to what the run started with; and deferral over what
// binding granted, with discovery recovered from the session log. Create one per run: the run's
// starting root and held names are its state.

export interface RunToolInput {
  session: Session;
  agent: { id: string };
  root: string;
}

export interface RunToolSource {
  candidates(input: RunToolInput): Promise<AnyTool[]>;
  defer(
    granted: AnyTool[],
    input: RunToolInput & {
      contextWindow: number;
      /** What the agent fetched so far, if the caller keeps it; else read from the log. */
      fetchedNames?: Iterable<string>;
    },
  ): { bound: AnyTool[]; deferredNames: string[] };
}

export interface RunToolSourceOptions {
  mcp: McpManager;
  /** The built-in registry (tools/builtin-tools.ts) plus any other host tools for this run. */
  builtins: readonly AnyTool[];
  agentConfig: AgentConfig;
  /** The session's project root, or null when it is bound to none (no `.mcp.json` is read). */
  projectRoot(session: Session): string | null;
}

export function createRunToolSource(opts: RunToolSourceOptions): RunToolSource {
  let start: { root: string; held: Set<string> } | null = null;
  return {
    async candidates({ session, root }) {
      if (!start) {
        const mcpTools = await opts.mcp.toolsForRun(session, opts.projectRoot(session));
        const all = [...opts.builtins, ...mcpTools];
        start = { root, held: new Set(all.map((t) => t.name)) };
        return all;
      }
      if (root === start.root)
        return [
          ...opts.builtins,
          ...(await opts.mcp.toolsForRun(session, opts.projectRoot(session))),
        ];
      const mcpTools = await opts.mcp.toolsAfterSwitch(session, root, start.held);
      return narrowToHeld([...opts.builtins, ...mcpTools], start.held);
    },
    defer(granted, { session, agent, contextWindow, fetchedNames }) {
      const r = applyDeferral({
        tools: granted,
        mode: opts.agentConfig.tool_search,
        threshold: opts.agentConfig.tool_search_threshold,
        contextShare: opts.agentConfig.tool_search_context_share,
        contextWindow,
        fetchedNames: fetchedNames ?? fetchedFromHistory(session.events(), agent.id),
      });
      return { bound: r.bound, deferredNames: r.deferredNames };
    },
  };
}

import type { z } from 'zod';
import type { ToolPayload } from '../../../shared/tools/payload';
import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { AppConfig } from '../config/schema';
import type { ToolServices } from './services';

// A tool is data plus one function (the agent engines' model): the loop knows nothing about any
// particular tool. Binding reads `flags`; dispatch reads `flags.readOnly`.

export interface ToolFlags {
  /** Reads only: calls of one step may run in parallel. Write tools never run beside another write. */
  readOnly: boolean;
  /** May be stripped from the initial bind and fetched through tool_search. */
  deferrable?: boolean;
  /** Only the root agent gets it (never a sub-agent). */
  rootOnly?: boolean;
  /** Not offered in plan mode. */
  actModeOnly?: boolean;
  /** Only bound when the client advertises this capability. */
  needsCapability?: ClientCapability;
  /** Never bound in headless runs (triggers, API, `mewbo run`). */
  needsInteractive?: boolean;
  /** Only in auto workspace mode. */
  autoWorkspaceOnly?: boolean;
  /** What the permission policy treats it as. */
  approval?: 'none' | 'edit' | 'shell';
}

export interface ToolContext {
  /** The session's active project root, set by the host; a model-given `root` may only narrow it. */
  root: string;
  sessionId: string;
  /** "root" or a sub-agent's id. */
  agentId: string;
  /** The model's id for this call, when a model made it (events that belong to a call carry it). */
  callId?: string;
  signal: AbortSignal;
  config: AppConfig;
  services: ToolServices;
  /** Appends an event to the session log (todos, panel, question, ...); resolves once durable. */
  emit(event: SessionEventBody): Promise<void>;
}

export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: P;
  /**
   * The JSON Schema the model sees, when the tool's schema arrives as JSON Schema rather than zod
   * (MCP tools). Unset: z.toJSONSchema(parameters). Read it through tool-search/tool-schema.ts.
   */
  inputJsonSchema?: Record<string, unknown>;
  flags: ToolFlags;
  run(ctx: ToolContext, args: z.infer<P>): Promise<ToolPayload>;
}

/** Keeps `args` typed from the schema at the definition site. */
export function defineTool<P extends z.ZodType>(def: ToolDefinition<P>): ToolDefinition<P> {
  return def;
}

export type AnyTool = ToolDefinition<z.ZodType>;

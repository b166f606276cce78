import type { z } from 'zod';
import type { ZodMiniType } from 'zod/mini';
import type { ToolPayload } from '../../../shared/tools/payload';
import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { AppConfig } from '../config/schema';
import type { ToolServices } from './services';

// A tool is data plus one function (the agent engines' model): the loop knows nothing about any
// particular tool. Binding reads `flags`; dispatch and the permission policy read what each call
// does (`classify`, else `flags`).

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
  /** What the permission policy treats its calls as, unless `classify` says per call. */
  approval?: ApprovalKind;
}

/**
 * What a call asks of the user: nothing, an edit, a shell command (anything that runs code), a
 * scope change (it widens what the agent reaches: another project), or an act on a paired phone
 * outside the computer (its screen, an alarm, a text).
 */
export type ApprovalKind = 'none' | 'edit' | 'shell' | 'scope' | 'device';

/** What one call does with its arguments (agent/permissions.ts decides approval from it). */
export interface CallClass {
  /** Reads only: it may run beside other reads of the step. */
  readOnly: boolean;
  approval: ApprovalKind;
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
  /**
   * Live progress of this call (an MCP server's progress notifications), shown on its tool card
   * and never stored. Absent where nobody watches (`mewbo tool`, `mewbo mcp`).
   */
  progress?(update: { progress: number; total?: number; message?: string }): void;
  /**
   * Whether this call may write the policy file `rel` (relative to `root`; see
   * sandbox/policy-paths.ts): the user approved it for this call, or an allow rule names it.
   * Absent: no policy file is written (tools/policy-guard.ts).
   */
  allowsPolicyWrite?(tool: string, rel: string): boolean;
}

/**
 * A tool's parameter schema: classic zod, or zod/mini where the tool's module must not load
 * classic zod (read_file, which `mewbo tool read_file` starts for: cli/zod-jitless.ts). The same
 * core checks and messages either way.
 */
export type ParamSchema = z.ZodType | ZodMiniType;

export interface ToolDefinition<P extends ParamSchema = ParamSchema> {
  name: string;
  description: string;
  parameters: P;
  /**
   * The JSON Schema the model sees, when the tool's schema arrives as JSON Schema rather than zod
   * (MCP tools). Unset: z.toJSONSchema(parameters). Read it through tool-search/tool-schema.ts.
   */
  inputJsonSchema?: Record<string, unknown>;
  flags: ToolFlags;
  /**
   * Per-call classification from the parsed arguments, for tools whose calls differ (a read and
   * a write of shell_session_tool). Unset: `flags.readOnly` and `flags.approval` for every call.
   */
  classify?(args: z.infer<P>): CallClass;
  run(ctx: ToolContext, args: z.infer<P>): Promise<ToolPayload>;
}

/** Keeps `args` typed from the schema at the definition site. */
export function defineTool<P extends ParamSchema>(def: ToolDefinition<P>): ToolDefinition<P> {
  return def;
}

export type AnyTool = ToolDefinition<ParamSchema>;

import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { errorPayload } from '../../../shared/tools/payload';
import type { AnyTool } from '../tools/tool';
import type { McpConnection } from './mcp-connection';
import { uniqueToolNames } from './tool-names';
import { mcpResultPayload } from './tool-result';

/** The server validates arguments against its own schema; the host only insists on an object. */
const argsSchema = z.record(z.string(), z.unknown());

/**
 * The connection's current tools as ToolDefinitions: namespaced, deferrable, their JSON Schema
 * passed through as the server gave it. A server's readOnlyHint lets its calls run in parallel and
 * skip approval; every other MCP tool is approved like a shell command, because it can do anything.
 */
export function adaptTools(connection: McpConnection): AnyTool[] {
  const tools = connection.tools;
  const names = uniqueToolNames(
    connection.spec.name,
    tools.map((t) => t.name),
  );
  return tools.map((tool) => adaptTool(connection, tool, names.get(tool.name)!));
}

function adaptTool(connection: McpConnection, tool: McpTool, name: string): AnyTool {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const server = connection.spec.name;
  return {
    name,
    description:
      tool.description?.trim() ||
      tool.title ||
      `${tool.name} (MCP server ${server}; no description given)`,
    parameters: argsSchema,
    inputJsonSchema: tool.inputSchema as Record<string, unknown>,
    flags: { readOnly, deferrable: true, approval: readOnly ? 'none' : 'shell' },
    async run(ctx, args) {
      const outcome = await connection.callTool(tool.name, args as Record<string, unknown>, {
        signal: ctx.signal,
        onProgress: ctx.progress,
        callId: ctx.callId,
        elicit: ctx.services.elicitation,
      });
      if (!outcome.ok)
        return errorPayload(outcome.code, outcome.message, { server, tool: tool.name });
      return mcpResultPayload(server, tool.name, outcome.result, connection.limits.resultMaxChars);
    },
  };
}

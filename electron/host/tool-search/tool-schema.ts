import { z } from 'zod';
import type { AnyTool } from '../tools/tool';

/** What a model request carries for one tool, and what tool_search returns for a match. */
export interface ToolSchema {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/**
 * The JSON Schema of a tool's arguments: the MCP server's own schema for MCP tools, otherwise
 * generated from zod. The `$schema` key is dropped: providers do not need it and it costs bytes
 * on every request.
 */
export function toolInputSchema(tool: AnyTool): Record<string, unknown> {
  const schema =
    tool.inputJsonSchema ??
    (z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >);
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

export function toolSchema(tool: AnyTool): ToolSchema {
  return { name: tool.name, description: tool.description, input_schema: toolInputSchema(tool) };
}

/** Bytes of the JSON a request spends on these tools (the deferral rule and the benchmark). */
export function schemaBytes(tools: readonly AnyTool[]): number {
  return Buffer.byteLength(JSON.stringify(tools.map(toolSchema)), 'utf8');
}

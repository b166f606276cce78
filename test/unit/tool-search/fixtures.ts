import { z } from 'zod';
import type { AnyTool } from '../../../electron/host/tools/tool';

/** A real ToolDefinition whose run echoes its name; MCP-like when `deferrable`. */
export function fakeTool(
  name: string,
  description: string,
  opts: { deferrable?: boolean; schema?: Record<string, unknown> } = {},
): AnyTool {
  return {
    name,
    description,
    parameters: z.object({ q: z.string().optional() }),
    ...(opts.schema ? { inputJsonSchema: opts.schema } : {}),
    flags: { readOnly: true, deferrable: opts.deferrable ?? false },
    run: async () => ({ kind: 'text', name }),
  };
}

export function mcpTools(server: string, count: number): AnyTool[] {
  return Array.from({ length: count }, (_, i) =>
    fakeTool(`mcp__${server}__tool_${i}`, `Tool number ${i} of ${server}`, { deferrable: true }),
  );
}

export const builtins: AnyTool[] = [
  fakeTool('read_file', 'Read a file'),
  fakeTool('aider_shell_tool', 'Run a shell command'),
];

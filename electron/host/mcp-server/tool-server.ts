import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { errorPayload, isErrorPayload, type ToolPayload } from '../../../shared/tools/payload';
import type { PermissionMode } from '../config/schema';
import { DisposableObject, toDisposable } from '../lifecycle/disposable';
import { toolInputSchema } from '../tool-search/tool-schema';
import { parseToolArgs } from '../tools/parse-args';
import type { AnyTool, ToolContext } from '../tools/tool';
import { exposedTools, refusalFor } from './exposed-tools';

// Serves built-in tools to an MCP client with the low-level SDK Server: the schema each tool
// lists is its zod parameters as JSON Schema, and a call returns the tool's payload as JSON text
// (isError for an error payload). Nothing a tool does can take the server down: bad arguments,
// refusals and exceptions all come back as error results. A name that is no tool here is the
// protocol error the spec asks for (-32602, invalid params), not a result: the client asked for
// something that does not exist, and no tool ran.

export interface ToolServerOptions {
  tools: readonly AnyTool[];
  /** The context every call runs in; each call gets its own abort signal on top of it. */
  context: ToolContext;
  mode: PermissionMode;
  version: string;
}

function result(payload: ToolPayload): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    isError: isErrorPayload(payload),
  };
}

export class McpToolServer extends DisposableObject {
  readonly server: Server;
  private readonly tools: Map<string, AnyTool>;

  constructor(private readonly opts: ToolServerOptions) {
    super();
    this.tools = new Map(exposedTools(opts.tools, opts.mode).map((t) => [t.name, t]));
    this.server = new Server(
      { name: 'mewbo', version: opts.version },
      // logging: the client may set a level (logging/setLevel, answered by the SDK per session);
      // a call that ends in an error says so as a warning too, for the client's log view.
      { capabilities: { tools: {}, logging: {} } },
    );
    this.register(toDisposable(() => this.server.close()));
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...this.tools.values()].map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: toolInputSchema(t) as { type: 'object'; [key: string]: unknown },
        annotations: { readOnlyHint: t.flags.readOnly, destructiveHint: !t.flags.readOnly },
      })),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = this.tools.get(request.params.name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool: '${request.params.name}'; available: ${[...this.tools.keys()].join(', ')}`,
        );
      }
      const payload = await this.call(tool, request.params.arguments, extra.signal);
      if (isErrorPayload(payload))
        await this.server
          .sendLoggingMessage(
            { level: 'warning', logger: 'mewbo', data: `${tool.name}: ${payload.message}` },
            extra.sessionId,
          )
          .catch(() => {});
      return result(payload);
    });
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  /** Runs one call of a served tool; always resolves to a payload. */
  private async call(tool: AnyTool, rawArgs: unknown, signal: AbortSignal): Promise<ToolPayload> {
    const parsed = parseToolArgs(tool, rawArgs);
    if (!parsed.ok) return parsed.error;
    const refusal = refusalFor(tool, parsed.args, this.opts.mode);
    if (refusal)
      return errorPayload('permission_denied', `Refused: ${refusal}.`, { mode: this.opts.mode });
    const ctx: ToolContext = {
      ...this.opts.context,
      signal: AbortSignal.any([this.opts.context.signal, signal]),
    };
    try {
      return await tool.run(ctx, parsed.args);
    } catch (err) {
      return errorPayload('tool_failed', `${tool.name} failed: ${(err as Error).message}`);
    }
  }
}

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpToolServer } from '../host/mcp-server/tool-server';
import { builtinTools } from '../host/tools/builtin-tools';
import { createStandaloneContext } from '../host/tools/standalone-context';
import { parseCliArgs, permissionModeOption, type CliCommand } from './command';
import { rootOption } from './root-option';

/** Largest JSON-RPC message accepted on stdin (bytes): room for big edit payloads; the SDK's default is 10 MB. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const SERVER_VERSION = '0.1.0';

const usage = `Usage: mewbo mcp [--root DIR] [--permission-mode ask|accept-edits|auto|plan]

Serves the built-in tools over MCP on stdin/stdout (stdio transport), rooted at DIR (default: the
current directory). Permission mode (default auto): plan lists only read-only tools; ask refuses
every write (there is nobody to approve); accept-edits allows edits but refuses shell commands.`;

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: { root: { type: 'string' }, 'permission-mode': { type: 'string' } },
    });
    const mode = permissionModeOption(values['permission-mode']) ?? 'auto';
    const root = rootOption(values.root);
    const standalone = await createStandaloneContext({
      root,
      dedupReads: false,
      onEvent: (event) => process.stderr.write(`event: ${JSON.stringify(event)}\n`),
    });
    const server = new McpToolServer({
      tools: builtinTools,
      context: standalone.ctx,
      mode,
      version: SERVER_VERSION,
    });
    const transport = new StdioServerTransport(process.stdin, process.stdout, {
      maxBufferSize: MAX_MESSAGE_BYTES,
    });
    const closed = new Promise<void>((done) => {
      transport.onclose = () => done();
      process.stdin.once('end', () => done());
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    });
    await server.connect(transport);
    process.stderr.write(`mewbo mcp: serving ${root} (permission mode ${mode})\n`);
    await closed;
    await server.dispose();
    await standalone.dispose();
    return 0;
  },
};

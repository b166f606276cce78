import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { homePaths } from '../host/config/paths';
import { McpToolServer } from '../host/mcp-server/tool-server';
import { builtinTools } from '../host/tools/builtin-tools';
import { createStandaloneContext } from '../host/tools/standalone-context';
import { McpHttpServer } from '../web/mcp-http-server';
import { loadOrCreateMcpHttpToken, mcpHttpTokenFile } from '../web/mcp-http-token';
import {
  parseCliArgs,
  permissionModeOption,
  portOption,
  UsageError,
  type CliCommand,
} from './command';
import { rootOption } from './root-option';

/** Largest JSON-RPC message accepted on stdin (bytes): room for big edit payloads; the SDK's default is 10 MB. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const SERVER_VERSION = '0.1.0';

const usage = `Usage: mewbo mcp [--root DIR] [--permission-mode ask|accept-edits|auto|plan]
       mewbo mcp --http [--port N] [--root DIR] [--permission-mode MODE]
       mewbo mcp --print-token

Serves the built-in tools over MCP on stdin/stdout (stdio transport), rooted at DIR (default: the
current directory). Permission mode (default auto): plan lists only read-only tools; ask refuses
every write (there is nobody to approve); accept-edits allows edits but refuses shell commands.

--http serves them over Streamable HTTP at http://127.0.0.1:N/mcp instead (default: a free port,
printed on stderr). Every request needs 'Authorization: Bearer TOKEN'; --print-token prints the
token (made on first use, kept in an owner-only file under $MEWBO_HOME/configs; delete the file to
revoke it). Requests whose Host or Origin is not this server are refused (403).`;

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: {
        root: { type: 'string' },
        'permission-mode': { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        'print-token': { type: 'boolean' },
      },
    });
    if (values['print-token']) {
      process.stdout.write(`${loadOrCreateMcpHttpToken(homePaths())}\n`);
      process.stderr.write(`(kept in ${mcpHttpTokenFile(homePaths())})\n`);
      return 0;
    }
    const port = portOption(values.port);
    if (port !== undefined && !values.http) throw new UsageError('--port goes with --http');
    const mode = permissionModeOption(values['permission-mode']) ?? 'auto';
    const root = rootOption(values.root);
    const standalone = await createStandaloneContext({
      root,
      dedupReads: false,
      onEvent: (event) => process.stderr.write(`event: ${JSON.stringify(event)}\n`),
    });
    const newToolServer = () =>
      new McpToolServer({
        tools: builtinTools,
        context: standalone.ctx,
        mode,
        version: SERVER_VERSION,
      });
    if (values.http) {
      const http = new McpHttpServer({
        newToolServer,
        token: loadOrCreateMcpHttpToken(homePaths()),
        port,
      });
      const { url } = await http.listen();
      process.stderr.write(
        `mewbo mcp: serving ${root} at ${url} (permission mode ${mode}); token: mewbo mcp --print-token\n`,
      );
      await new Promise<void>((done) => {
        process.once('SIGINT', () => done());
        process.once('SIGTERM', () => done());
      });
      await http.dispose();
      await standalone.dispose();
      return 0;
    }
    const server = newToolServer();
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

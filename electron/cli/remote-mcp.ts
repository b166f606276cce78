import { runProjectServer } from '../host/remote/remote-mcp-server';
import { parseCliArgs, UsageError, type CliCommand } from './command';

const usage = `Usage: mewbo remote-mcp --root PATH --server NAME --sha256 HEX [--deny PATH]...

Runs the stdio MCP server NAME of the project at PATH (its .mcp.json) on this machine, confined
like the project's shells, with stdin/stdout as the server's. The app starts it over SSH for a
trusted project on this machine; it is not meant to be run by hand. HEX is the SHA-256 of the
.mcp.json the app trusted: a file that differs starts nothing. --deny adds a path the sandbox denies.`;

export const remoteMcpCommand: CliCommand = {
  name: 'remote-mcp',
  usage,
  async run(argv) {
    const { values } = parseCliArgs({
      args: argv,
      options: {
        root: { type: 'string' },
        server: { type: 'string' },
        sha256: { type: 'string' },
        deny: { type: 'string', multiple: true },
      },
    });
    if (!values.root?.startsWith('/')) throw new UsageError('--root takes an absolute path');
    if (!values.server) throw new UsageError('--server takes the name of a server of .mcp.json');
    if (!/^[0-9a-f]{64}$/.test(values.sha256 ?? ''))
      throw new UsageError('--sha256 takes the hex SHA-256 of the trusted .mcp.json');
    return runProjectServer({
      root: values.root,
      name: values.server,
      sha256: values.sha256!,
      env: process.env,
      denied: values.deny ?? [],
      input: process.stdin,
      output: process.stdout,
      errors: process.stderr,
    });
  },
};

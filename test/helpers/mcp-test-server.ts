// An MCP server for tests and benchmarks, built on the SDK's McpServer and run as a real process
// (bundled by mcp-test-server-build.ts). Flags:
//   --name NAME         server name (default "testsrv")
//   --catalog SERVER    serve the 50 tools of one server of mcp-tool-catalog.ts instead of the test tools
//   --fail-start        write a reason to stderr and exit 3 before speaking MCP (a server that fails to start)
//   --exit-after MS     exit 1 this long after a client connects (a server that keeps crashing)
//   --http              serve streamable HTTP on 127.0.0.1 (stateless) and print {"ready":true,"url":...}
//   --mark DIR          where `slow` writes `cancelled` when the client cancels it
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { catalogTools, CATALOG_SERVERS, type CatalogServer } from './mcp-tool-catalog';

const { values: opts } = parseArgs({
  options: {
    name: { type: 'string', default: 'testsrv' },
    catalog: { type: 'string' },
    'fail-start': { type: 'boolean', default: false },
    'exit-after': { type: 'string' },
    http: { type: 'boolean', default: false },
    mark: { type: 'string' },
  },
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

function zodShape(params: string): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const p of params.split(',').filter(Boolean)) {
    const [raw, type] = p.split(':') as [string, string];
    const base =
      {
        string: z.string(),
        integer: z.number().int(),
        number: z.number(),
        boolean: z.boolean(),
        array: z.array(z.string()),
        object: z.record(z.string(), z.unknown()),
      }[type] ?? z.unknown();
    const name = raw.replace(/\?$/, '');
    const described = base.describe(`The ${name.replace(/_/g, ' ')}`);
    shape[name] = raw.endsWith('?') ? described.optional() : described;
  }
  return shape;
}

function buildServer(): McpServer {
  const server = new McpServer(
    { name: opts.name!, version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  if (opts.catalog) {
    if (!(opts.catalog in CATALOG_SERVERS)) throw new Error(`unknown catalog '${opts.catalog}'`);
    for (const t of catalogTools(opts.catalog as CatalogServer)) {
      server.registerTool(
        t.name,
        { description: t.description, inputSchema: zodShape(t.params) },
        async (args) => text(`${t.name} called with ${JSON.stringify(args)}`),
      );
    }
    return server;
  }
  server.registerTool(
    'echo',
    {
      description: 'Echoes the text back',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text: t }) => text(`echo: ${t}`),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    'pid',
    { description: 'Returns the process id of this server', annotations: { readOnlyHint: true } },
    async () => text(String(process.pid)),
  );
  server.registerTool(
    'cwd',
    {
      description: 'Returns the working directory of this server',
      annotations: { readOnlyHint: true },
    },
    async () => text(process.cwd()),
  );
  server.registerTool(
    'env',
    { description: 'Returns one environment variable', inputSchema: { name: z.string() } },
    async ({ name }) => text(process.env[name] ?? '(unset)'),
  );
  server.registerTool(
    'big',
    {
      description: 'Returns a long text: a head marker, filler, a tail marker',
      inputSchema: { chars: z.number().int() },
    },
    async ({ chars }) => text(`HEAD${'x'.repeat(Math.max(0, chars - 8))}TAIL`),
  );
  server.registerTool(
    'read',
    { description: 'Reads a file, or says why it could not', inputSchema: { path: z.string() } },
    async ({ path }) => {
      try {
        return text(readFileSync(path, 'utf8'));
      } catch (err) {
        return text(`READ ${(err as NodeJS.ErrnoException).code}`);
      }
    },
  );
  server.registerTool(
    'connect',
    {
      description:
        'Opens a TCP socket to host:port itself and returns what it answers, or the error',
      inputSchema: { host: z.string(), port: z.number().int() },
    },
    ({ host, port }) =>
      new Promise((resolve) => {
        const got: Buffer[] = [];
        const s = connect(port, host, () => s.end('GET /direct HTTP/1.0\r\n\r\n'));
        s.on('data', (d: Buffer) => got.push(d));
        s.on('end', () => resolve(text(`GOT ${Buffer.concat(got).toString()}`)));
        s.on('error', (e: NodeJS.ErrnoException) => resolve(text(`CONNECT ${e.code}`)));
      }),
  );
  server.registerTool(
    'curl',
    {
      description: 'Runs curl on a URL with the environment this server was given (its proxy)',
      inputSchema: { url: z.string() },
    },
    ({ url }) =>
      new Promise((resolve) =>
        execFile('curl', ['-sS', '--max-time', '30', url], (err, stdout, stderr) =>
          resolve(text(`${stdout}${stderr}${err ? ` exit ${err.code}` : ''}`)),
        ),
      ),
  );
  server.registerTool(
    'write',
    {
      description: 'Writes a file, or says why it could not',
      inputSchema: { path: z.string(), content: z.string() },
    },
    async ({ path, content }) => {
      try {
        writeFileSync(path, content);
        return text('WROTE');
      } catch (err) {
        return text(`WRITE ${(err as NodeJS.ErrnoException).code}`);
      }
    },
  );
  server.registerTool('fail', { description: 'Always reports a tool error' }, async () => ({
    ...text('it failed on purpose'),
    isError: true,
  }));
  server.registerTool(
    'crash',
    { description: 'Exits the server process without answering' },
    async () => {
      process.stderr.write('crashing on purpose\n');
      process.exit(1);
    },
  );
  server.registerTool(
    'slow',
    {
      description:
        'Reports progress (1 of 3, 2 of 3), then waits until cancelled; writes `cancelled` to --mark',
    },
    async (extra) => {
      const token = extra._meta?.progressToken;
      for (const progress of [1, 2]) {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 3, message: `step ${progress}` },
          });
      }
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
      if (opts.mark) writeFileSync(join(opts.mark, 'cancelled'), String(extra.requestId));
      return text('cancelled');
    },
  );
  server.registerTool(
    'ticks',
    {
      description:
        'Works for `ms` milliseconds, sending a progress notification every `every` ms when `progress` is true, then answers `done`',
      inputSchema: { ms: z.number().int(), every: z.number().int(), progress: z.boolean() },
    },
    async ({ ms, every, progress }, extra) => {
      const token = extra._meta?.progressToken;
      const end = Date.now() + ms;
      for (let tick = 1; Date.now() < end; tick++) {
        await new Promise((r) => setTimeout(r, every));
        if (progress && token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: tick },
          });
      }
      return text('done');
    },
  );
  server.registerTool(
    'roots',
    { description: 'Asks the client for its roots and returns them as JSON' },
    async () => text(JSON.stringify((await server.server.listRoots()).roots)),
  );
  server.registerTool(
    'log',
    {
      description: 'Sends one log message at each of info and error',
      inputSchema: { text: z.string() },
    },
    async ({ text: t }) => {
      await server.sendLoggingMessage({ level: 'info', logger: 'testsrv', data: `info ${t}` });
      await server.sendLoggingMessage({ level: 'error', data: { said: t } });
      return text('logged');
    },
  );
  server.registerResource(
    'readme',
    'test://readme',
    { description: 'The project readme' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'hello from the readme' }] }),
  );
  server.registerResource(
    'big',
    'test://big',
    { description: 'A log longer than an attachment may be' },
    async (uri) => ({
      contents: [{ uri: uri.href, text: `BIGHEAD${'y'.repeat(150_000)}BIGTAIL` }],
    }),
  );
  server.registerPrompt('review', { description: 'Review the current change' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Review the change' } }],
  }));
  server.registerPrompt(
    'greet',
    {
      description: 'Greets someone',
      argsSchema: { name: z.string(), tone: z.string().optional() },
    },
    ({ name, tone }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Greet ${name}${tone ? ` in a ${tone} tone` : ''}.` },
        },
        { role: 'assistant', content: { type: 'text', text: 'Greeting coming up.' } },
      ],
    }),
  );
  server.registerTool(
    'add_prompt',
    { description: 'Adds a prompt and announces the prompt list change' },
    async () => {
      server.registerPrompt('added', { description: 'A prompt added at run time' }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'added' } }],
      }));
      return text('added');
    },
  );
  server.registerTool(
    'elicit',
    {
      description:
        'Asks the client (elicitation/create) with a form (schema: its requestedSchema as JSON) or a page (url); returns the answer as JSON, or ERROR and the refusal',
      inputSchema: {
        message: z.string(),
        schema: z.string().optional(),
        url: z.string().optional(),
      },
      // It only asks: no approval before it (a phone test runs in ask mode).
      annotations: { readOnlyHint: true },
    },
    async ({ message, schema, url }) => {
      try {
        const answer = url
          ? await server.server.elicitInput({ mode: 'url', message, url, elicitationId: 'e-1' })
          : await server.server.elicitInput({
              message,
              requestedSchema: JSON.parse(schema ?? '{}'),
            });
        return text(JSON.stringify(answer));
      } catch (err) {
        return text(`ERROR ${(err as { code?: number }).code} ${(err as Error).message}`);
      }
    },
  );
  // Roots list changes the client announced, for `roots_changes`.
  let rootsChanges = 0;
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    rootsChanges++;
  });
  server.registerTool(
    'roots_changes',
    { description: 'How many notifications/roots/list_changed arrived' },
    async () => text(String(rootsChanges)),
  );
  let grown = 0;
  server.registerTool(
    'grow',
    { description: 'Adds a new tool and announces the list change' },
    async () => {
      const name = `grown_${++grown}`;
      server.registerTool(name, { description: `A tool added at run time (${grown})` }, async () =>
        text(name),
      );
      return text(name);
    },
  );
  return server;
}

async function main(): Promise<void> {
  if (opts['fail-start']) {
    process.stderr.write('cannot start: TEST_TOKEN is not set\n');
    process.exit(3);
  }
  if (opts.http) {
    // Stateless: a fresh server and transport per request, so a reconnecting client can initialize again.
    const http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const server = buildServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    });
    http.listen(0, '127.0.0.1', () => {
      const addr = http.address() as { port: number };
      process.stdout.write(
        `${JSON.stringify({ ready: true, url: `http://127.0.0.1:${addr.port}/mcp`, pid: process.pid })}\n`,
      );
    });
    return;
  }
  const server = buildServer();
  if (opts['exit-after']) {
    server.server.oninitialized = () =>
      setTimeout(() => process.exit(1), Number(opts['exit-after']));
  }
  await server.connect(new StdioServerTransport());
}

main().catch((err) => {
  process.stderr.write(`test server failed: ${(err as Error).message}\n`);
  process.exit(2);
});

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpToolServer } from '../host/mcp-server/tool-server';
import { isOwnHost, isOwnOrigin } from './loopback-request';
import { sameSecret } from './login-cookie';
import { requestPath } from './request-path';
import { McpReplayBuffer } from './mcp-replay-buffer';
import * as C from './constants';

// `mewbo mcp --http`: the tool server over Streamable HTTP on 127.0.0.1, on the SDK's
// StreamableHTTPServerTransport (sessions, SSE, resumption from Last-Event-ID). What the SDK leaves
// to the server is here: one transport and one tool server per session (an SDK Server speaks to one
// transport), the DNS-rebinding checks the spec asks for (a Host or Origin that is not this server
// answers 403), and the bearer token (401 without it): a port on 127.0.0.1 is open to every local
// process and every page the browser shows, and these tools edit files and run commands.

export interface McpHttpServerOptions {
  /** A tool server for a new session; the HTTP server owns it from then on. */
  newToolServer: () => McpToolServer;
  /** The bearer token every request must carry (`mewbo mcp --print-token`). */
  token: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Tests lower it to see the oldest session go. */
  maxSessions?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpToolServer;
}

/** A JSON-RPC error with no id, the shape the SDK answers its own HTTP refusals with. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export class McpHttpServer {
  private readonly http: Server;
  /** Insertion order is recency: a session used is moved to the end. */
  private readonly sessions = new Map<string, Session>();
  private port = 0;

  constructor(private readonly opts: McpHttpServerOptions) {
    this.http = createServer(
      {
        headersTimeout: C.MCP_HEADERS_TIMEOUT_MS,
        requestTimeout: C.MCP_REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: C.TIMEOUT_CHECK_MS,
      },
      (req, res) => {
        this.onRequest(req, res).catch((err: unknown) => {
          console.error('mewbo mcp: request failed', err);
          if (!res.headersSent) refuse(res, 500, 'Internal error');
          else res.end();
        });
      },
    );
  }

  async listen(): Promise<{ port: number; url: string }> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port ?? 0, '127.0.0.1', () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.port = (this.http.address() as AddressInfo).port;
    return { port: this.port, url: `http://127.0.0.1:${this.port}${C.MCP_HTTP_PATH}` };
  }

  async dispose(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.server.dispose()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isOwnHost(req, this.port)) return refuse(res, 403, 'Forbidden: Host is not this server');
    if (!isOwnOrigin(req, this.port))
      return refuse(res, 403, 'Forbidden: Origin is not this server');
    if (!sameSecret(bearer(req), this.opts.token)) {
      return refuse(
        res,
        401,
        'Unauthorized: send Authorization: Bearer TOKEN, the token `mewbo mcp --print-token` prints',
        { 'www-authenticate': 'Bearer realm="mewbo mcp"' },
      );
    }
    if (requestPath(req.url) !== C.MCP_HTTP_PATH)
      return refuse(res, 404, `Not found: the MCP endpoint is ${C.MCP_HTTP_PATH}`);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      if (!session) return refuse(res, 404, 'Session not found: initialize a new one');
      this.sessions.delete(id);
      this.sessions.set(id, session);
      return session.transport.handleRequest(req, res);
    }
    return this.newSession(req, res);
  }

  /** A request without a session id: the transport takes it if it is an initialize, else 400s. */
  private async newSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const server = this.opts.newToolServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new McpReplayBuffer(),
      maxRequestBodySize: C.MAX_MCP_BODY_BYTES,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
        this.evictOldest();
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        void server.dispose();
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (transport.sessionId === undefined) await server.dispose();
  }

  private evictOldest(): void {
    const max = this.opts.maxSessions ?? C.MAX_MCP_SESSIONS;
    for (const [id, session] of this.sessions) {
      if (this.sessions.size <= max) break;
      this.sessions.delete(id);
      void session.server.dispose();
    }
  }
}

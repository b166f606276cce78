import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { MEWBO_CLI, runMewbo } from './mewbo-cli';

// `mewbo mcp --http` as a user runs it: its own process, its URL read from its stderr, its token
// from `mewbo mcp --print-token`, and a raw HTTP client that can send any Host and Origin (fetch
// refuses to set Host), for tests that speak to it the way an attacker would.

/** How long the server may take to print its URL before the test fails. */
const START_TIMEOUT_MS = 20_000;

export interface McpHttpProcess {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

export async function printToken(home: string): Promise<string> {
  const r = await runMewbo(['mcp', '--print-token'], { env: { MEWBO_HOME: home } });
  if (r.code !== 0) throw new Error(`mewbo mcp --print-token failed: ${r.stderr}`);
  return r.stdout.trim();
}

export async function startMcpHttp(
  home: string,
  root: string,
  extra: string[] = [],
): Promise<McpHttpProcess> {
  const token = await printToken(home);
  const child = spawn(process.execPath, [MEWBO_CLI, 'mcp', '--http', '--root', root, ...extra], {
    env: { PATH: process.env.PATH, MEWBO_HOME: home, OLLAMA_BASE_URL: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL from mewbo mcp --http: ${err}`)),
      START_TIMEOUT_MS,
    );
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mewbo mcp --http exited ${code}: ${err}`));
    });
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    port: Number(new URL(url).port),
    token,
    child,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Host included), the body read to the end. */
export function httpRequest(
  port: number,
  opts: { method?: string; path?: string; headers: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/mcp',
        headers: opts.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A JSON-RPC initialize request body, as a client sends it first. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'attack', version: '1' },
  },
});

/** The headers a well-behaved client sends to `port` with `token`. */
export function goodHeaders(port: number, token: string): Record<string, string> {
  return {
    host: `127.0.0.1:${port}`,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
}

/** A request whose answer is an SSE stream that stays open: read until `until(text)`, then hang up. */
export function sseRequest(
  port: number,
  opts: { method?: string; headers: Record<string, string>; body?: string },
  until: (text: string) => boolean,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: '/mcp',
        headers: opts.headers,
      },
      (res) => {
        let text = '';
        const done = () => {
          req.destroy();
          resolve({ status: res.statusCode!, text });
        };
        res.on('data', (d) => {
          text += d;
          if (until(text)) done();
        });
        res.on('end', done);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

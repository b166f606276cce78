import { spawn, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { addressClassifier } from '../../electron/host/network/address-kind';
import { systemResolver, type Resolver } from '../../electron/host/network/resolver';

// Network fixtures of the proxy tests: a resolver that knows test names (allowed.test maps to
// 127.0.0.1 without touching /etc/hosts), origin servers that stand in for the internet, a
// listener in a child process carrying a session's shell token (a dev server that session
// started), curl through a proxy, and a client of CONNECT tunnels.

export const CURL = '/usr/bin/curl';

/** Names to addresses; any other name fails as the system's resolver would. */
export function fakeResolver(
  table: Record<string, string | string[]>,
): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async lookup(name) {
      asked.push(name);
      const found = table[name];
      if (!found)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      return Array.isArray(found) ? found : [found];
    },
  };
}

/** A deterministic body of `n` bytes, and its sha256. */
export function bodyOf(n: number): { bytes: Buffer; sha: string } {
  const bytes = Buffer.alloc(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 31 + 7) & 0xff;
  return { bytes, sha: createHash('sha256').update(bytes).digest('hex') };
}

export interface Origin {
  port: number;
  /** Request heads as received (for Host header checks). */
  seen: {
    method: string;
    url: string;
    host: string | undefined;
    headers: Record<string, unknown>;
  }[];
  close(): Promise<void>;
}

/** An HTTP origin: /bytes/N answers N deterministic bytes, anything else echoes the request. */
export async function startHttpOrigin(host = '127.0.0.1'): Promise<Origin> {
  const seen: Origin['seen'] = [];
  const server: Server = createHttpServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, host: req.headers.host, headers: req.headers });
    const m = /^\/bytes\/(\d+)$/.exec(req.url ?? '');
    if (m) {
      const { bytes } = bodyOf(Number(m[1]));
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': bytes.length,
      });
      res.end(bytes);
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-origin': 'yes' });
      res.end(`origin saw ${req.method} ${req.url} host=${req.headers.host} body=${body}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    port: (server.address() as { port: number }).port,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A raw TCP origin running `onSocket` for each connection. */
export async function startTcpOrigin(
  onSocket: (s: Socket) => void,
  host = '127.0.0.1',
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: NetServer = createServer({ allowHalfOpen: true }, (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A CONNECT through the proxy: the tunnel's socket once the proxy said 200, or its refusal. */
export function openTunnel(
  proxyPort: number,
  authority: string,
  extraHeaders = '',
): Promise<{ socket: Socket; status: number; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: proxyPort, host: '127.0.0.1', allowHalfOpen: true });
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const head = buf.subarray(0, end).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const rest = buf.subarray(end + 4);
      socket.pause();
      if (rest.length) socket.unshift(rest);
      resolve({
        socket,
        status,
        head: head + '\r\n\r\n' + (status === 200 ? '' : rest.toString()),
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${extraHeaders}\r\n`);
  });
}

/** Reads a socket to its end. */
export function readAll(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.once('end', () => resolve(Buffer.concat(chunks)));
    socket.once('close', () => resolve(Buffer.concat(chunks)));
    socket.resume();
  });
}

export interface CurlResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** curl with `args`, its exit code, body and stderr (never throws on a failing exit). */
export function curl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CurlResult> {
  return new Promise((resolve) => {
    execFile(
      CURL,
      ['-sS', '--max-time', '60', ...args],
      { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: { PATH: process.env.PATH, ...env } },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? null) : 0,
          stdout,
          stderr: stderr.toString(),
        }),
    );
  });
}

/**
 * A TCP listener in its own process with MEWBO_SHELL_TOKEN set: what a dev server a session's
 * shell started looks like to the host. It answers each connection with `greeting` and closes.
 */
export async function childListener(
  token: string,
  greeting: string,
): Promise<{ port: number; pid: number; kill(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const s=require('net').createServer(c=>c.end(process.argv[1]));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`,
      greeting,
    ],
    {
      env: { PATH: process.env.PATH, MEWBO_SHELL_TOKEN: token },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`listener exited (${code})`)));
  });
  return { port, pid: child.pid!, kill: () => child.kill('SIGKILL') };
}

/**
 * A name the system's resolver turns into an address of this machine that is not spelled as
 * one (this machine's host name, from /etc/hosts): no allowlist names it and it is no
 * `localhost`, so a confined process's connection to it is a new destination (asked in ask mode),
 * yet a server here answers it. Null where the host name does not resolve to this machine.
 */
export async function localName(): Promise<{ name: string; address: string } | null> {
  const name = hostname().toLowerCase();
  if (!name || name === 'localhost' || name.endsWith('.localhost')) return null;
  try {
    const [address] = await systemResolver.lookup(name);
    return address && addressClassifier()(address) === 'loopback' ? { name, address } : null;
  } catch {
    return null;
  }
}

/**
 * An HTTP origin in a process of its own (a server that is neither the app nor the test's own
 * process, which an in-process host counts as its own listener): it answers
 * `origin saw METHOD URL host=HOST` and reports each request's URL in `seen`.
 */
export async function startChildHttpOrigin(
  host = '127.0.0.1',
): Promise<{ port: number; seen: string[]; close(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const s=require('http').createServer((q,r)=>{console.log(JSON.stringify(q.url));r.end('origin saw '+q.method+' '+q.url+' host='+q.headers.host)});s.listen(0,process.argv[1],()=>console.log(s.address().port))`,
      host,
    ],
    { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const seen: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    let port: number | null = null;
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (port === null) resolve((port = Number(line)));
        else seen.push(JSON.parse(line) as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`origin exited (${code})`)));
  });
  return { port, seen, close: () => child.kill('SIGKILL') };
}

import { connect, type Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

// Raw HTTP for the attacks: bytes on a TCP socket, as an attacker would send them (Node's own
// client refuses to send most of these requests).

export interface RawAnswer {
  /** The status code of the first response line, or null when the server sent nothing. */
  status: number | null;
  text: string;
}

/** Sends `bytes` and reads until the server closes the socket (or `ms` passes: status null). */
export function rawRequest(port: number, bytes: string | Buffer, ms = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : null, text });
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

/** A GET of `target` with `Connection: close`. */
export function rawGet(port: number, target: string, headers = ''): Promise<RawAnswer> {
  return rawRequest(
    port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`,
  );
}

/** Opens a socket and sends part of a request, then nothing: a half-open (slowloris) request. */
export function halfOpen(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
      resolve({ socket, closed });
    });
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    const closed = new Promise<string>((r) => socket.on('close', () => r(text)));
    socket.once('error', reject);
  });
}

/**
 * The deliberately unprotected variant: a bare node:http server in its own process whose handler
 * decodes the path the way the web host did before it was hardened (no guard, Node's default
 * timeouts). Used to show an attack really works, so a test of the hardened host cannot pass
 * vacuously.
 */
export async function startUnprotectedServer(
  options: { headersTimeoutMs?: number } = {},
): Promise<{ port: number; child: ChildProcess; exited: Promise<number | null>; stop(): void }> {
  const script = `
    const http = require('node:http');
    const server = http.createServer({ headersTimeout: ${options.headersTimeoutMs ?? 0}, requestTimeout: 0 }, (req, res) => {
      const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      res.end(path);
    });
    server.on('upgrade', (req, socket) => {
      const path = new URL(req.url, 'http://localhost').pathname;
      socket.end('HTTP/1.1 404 Not Found\\r\\n\\r\\n' + path);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('exit', () => reject(new Error('the unprotected server did not start')));
  });
  return { port, child, exited, stop: () => child.kill('SIGKILL') };
}

/**
 * One connection kept open for several requests, as a keep-alive client uses it: `send` writes
 * raw bytes and reads one answer (its head and a Content-Length body), or what came before the
 * server closed the connection (status null when nothing did).
 */
export async function keepAliveClient(
  port: number,
): Promise<{ send(bytes: string): Promise<RawAnswer & { body: string }>; close(): void }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r, j) => socket.once('connect', r).once('error', j));
  let buf = '';
  let closed = false;
  let wake = () => {};
  socket.on('data', (d) => ((buf += d.toString('latin1')), wake()));
  socket.on('error', () => {});
  socket.on('close', () => ((closed = true), wake()));
  const answer = (): (RawAnswer & { body: string }) | null => {
    const end = buf.indexOf('\r\n\r\n');
    if (end === -1) return closed ? { status: null, text: buf, body: '' } : null;
    const head = buf.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1);
    if (length < 0 || buf.length < end + 4 + length) {
      if (!closed) return null;
      const text = buf;
      buf = '';
      return { status: Number(head.slice(9, 12)), text, body: text.slice(end + 4) };
    }
    const text = buf.slice(0, end + 4 + length);
    buf = buf.slice(text.length);
    return { status: Number(head.slice(9, 12)), text, body: text.slice(end + 4) };
  };
  return {
    send(bytes) {
      socket.write(bytes);
      return new Promise((resolve) => {
        wake = () => {
          const a = answer();
          if (a) resolve(a);
        };
        wake();
      });
    },
    close: () => socket.destroy(),
  };
}

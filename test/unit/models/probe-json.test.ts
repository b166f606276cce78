import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeJson } from '../../../electron/host/models/probe-json';

// probeJson asks a local model server a small JSON question over node:http (not fetch, which would
// load undici into every idle host, #26). Real servers on loopback answer each way it must read.

interface Seen {
  method?: string;
  url?: string;
  headers?: IncomingMessage['headers'];
  body?: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      // A stalled answer's socket would hold close() until it timed out.
      if ('closeAllConnections' in s) (s as HttpServer).closeAllConnections();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    }),
  );
});

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP server whose `answer` writes the response; `seen` is the last request it read. */
async function httpServer(answer: (res: ServerResponse) => void) {
  const seen: Seen = {};
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      Object.assign(seen, { method: req.method, url: req.url, headers: req.headers, body });
      answer(res);
    });
  });
  return { url: await listening(server), seen };
}

const json = (status: number, body: string) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
};

describe('probeJson', () => {
  it('GETs a URL and returns its JSON body, asking for the connection to close after it', async () => {
    const s = await httpServer(json(200, '{"models":[{"name":"qwen3:8b"}]}'));
    expect(await probeJson(`${s.url}/api/tags`, { timeoutMs: 5000 })).toEqual({
      models: [{ name: 'qwen3:8b' }],
    });
    expect([s.seen.method, s.seen.url, s.seen.body]).toEqual(['GET', '/api/tags', '']);
    // No keep-alive socket to the model server outlives the probe.
    expect(s.seen.headers?.connection).toBe('close');
  });

  it('POSTs a body as JSON', async () => {
    const s = await httpServer(json(200, '{"capabilities":["vision"]}'));
    const answer = await probeJson(`${s.url}/api/show`, {
      body: { model: 'llava', ünïcode: 'é' },
      timeoutMs: 5000,
    });
    expect(answer).toEqual({ capabilities: ['vision'] });
    expect(s.seen.method).toBe('POST');
    expect(s.seen.headers?.['content-type']).toBe('application/json');
    expect(JSON.parse(s.seen.body!)).toEqual({ model: 'llava', ünïcode: 'é' });
  });

  it('is null for another status, a redirect, or a body that is not JSON', async () => {
    const missing = await httpServer(json(404, '{"error":"not found"}'));
    expect(await probeJson(`${missing.url}/api/tags`, { timeoutMs: 5000 })).toBeNull();
    const moved = await httpServer((res) => {
      res.writeHead(301, { location: '/elsewhere' });
      res.end('{}');
    });
    expect(await probeJson(`${moved.url}/api/tags`, { timeoutMs: 5000 })).toBeNull();
    const html = await httpServer(json(200, '<html>not an API</html>'));
    expect(await probeJson(`${html.url}/api/tags`, { timeoutMs: 5000 })).toBeNull();
  });

  it('is null where nothing listens and for a URL it cannot ask', async () => {
    expect(await probeJson('http://127.0.0.1:9/api/tags', { timeoutMs: 5000 })).toBeNull();
    expect(await probeJson('not a url', { timeoutMs: 5000 })).toBeNull();
    expect(await probeJson('file:///etc/passwd', { timeoutMs: 5000 })).toBeNull();
  });

  it('is null when the answer does not finish in time: no headers, or half a body', async () => {
    const silent = await httpServer(() => {});
    expect(await probeJson(`${silent.url}/api/tags`, { timeoutMs: 200 })).toBeNull();
    const stalled = await httpServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"models":');
    });
    expect(await probeJson(`${stalled.url}/api/tags`, { timeoutMs: 200 })).toBeNull();
  });

  it('speaks TLS to an https: URL', async () => {
    let first: number | undefined;
    const raw = createNetServer((socket) =>
      socket.once('data', (d: Buffer) => {
        first = d[0];
        socket.destroy();
      }),
    );
    const url = (await listening(raw)).replace(/^http:/, 'https:');
    expect(await probeJson(`${url}/api/tags`, { timeoutMs: 5000 })).toBeNull();
    // 0x16: a TLS handshake record (the ClientHello), not a plain HTTP request.
    expect(first).toBe(0x16);
  });
});

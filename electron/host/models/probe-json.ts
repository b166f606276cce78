import { request as httpRequest } from 'node:http';

// The small JSON requests the host makes to learn about a local model server while it idles
// (Ollama's model list and model info, asked at every models.status, which the page invokes each
// time it opens). They go through node:http, which the web server has loaded anyway, and not
// fetch: the first fetch() loads Node's bundled undici and compiles its WebAssembly HTTP parser,
// and an idle host then kept them, 3.6 MiB of its resident memory for one refused connection to
// 127.0.0.1:11434 (#26 part 4). fetch stays for model calls, which load an SDK anyway.

export interface ProbeRequest {
  /** Sent as a JSON POST body; absent, the request is a GET. */
  body?: unknown;
  /** The whole exchange, connection to the body's last byte. */
  timeoutMs: number;
}

/**
 * The parsed JSON body of a 2xx answer from `url` (http: or https:), or null: nothing answers, an
 * error or other status (a redirect is not followed), a body that is not JSON, or no full answer
 * within timeoutMs. Never rejects. Each request has its own connection, closed after the answer,
 * so nothing outlives it.
 */
export async function probeJson(url: string, opts: ProbeRequest): Promise<unknown> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (target?.protocol !== 'http:' && target?.protocol !== 'https:') return null;
  // TLS only for a server behind https (a proxy in front of Ollama), never for the usual local one.
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string | number> =
    body === undefined
      ? { accept: 'application/json' }
      : {
          accept: 'application/json',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        };
  return new Promise((resolve) => {
    const done = (value: unknown) => {
      clearTimeout(timer);
      req.destroy();
      resolve(value);
    };
    const req = request(
      target,
      { method: body === undefined ? 'GET' : 'POST', headers, agent: false },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) return done(null);
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => done(null));
        res.on('end', () => {
          try {
            done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            done(null);
          }
        });
      },
    );
    const timer = setTimeout(() => done(null), opts.timeoutMs);
    req.on('error', () => done(null));
    req.end(body);
  });
}

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

// The phone web page (renderer/phone, built to dist/phone) as the listener serves it: a fixed set
// of files, nothing chosen by the request path, so no path can reach anything else on disk.

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/phone.js': { file: 'phone.js', type: 'text/javascript; charset=utf-8' },
  '/phone.css': { file: 'phone.css', type: 'text/css; charset=utf-8' },
};

export async function servePhonePage(
  req: IncomingMessage,
  res: ServerResponse,
  pageDir: string | undefined,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'https://device.invalid').pathname;
  const entry = FILES[path];
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return plain(res, 405, 'only GET is served here');
  if (!entry)
    return plain(
      res,
      404,
      'not found: this listener serves the phone page and the device socket only',
    );
  let body: Buffer;
  try {
    if (!pageDir) throw new Error('no page directory');
    body = await readFile(join(pageDir, entry.file));
  } catch {
    return plain(res, 404, 'the phone page is not built: run `npm run build` on the desktop');
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': entry.type,
    'Content-Length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const SECURITY_HEADERS = {
  // 'self' covers wss:// to this same host:port (CSP level 3).
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Content types of the built renderer's files, by extension (the window's app:// serves them too). */
export const RENDERER_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

// The same CSP the Electron window sets: scripts only from this origin, no inline code.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:";

/**
 * Serves files of the built renderer; unknown paths fall back to index.html (one-page app). `path`
 * is the decoded request path (see request-path.ts).
 */
export async function serveStatic(
  dir: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const rel = normalize(path).replace(/^([/\\])+/, '');
  let file = join(dir, rel);
  if (!file.startsWith(dir + sep) && file !== dir) {
    res.writeHead(403).end();
    return;
  }
  let st = await stat(file).catch(() => null);
  if (!st || st.isDirectory()) {
    file = join(dir, 'index.html');
    st = await stat(file).catch(() => null);
  }
  if (!st) {
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end('renderer not built: run npm run build\n');
    return;
  }
  res.writeHead(200, {
    'content-type': RENDERER_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': st.size,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // The file can vanish or turn unreadable between stat and open: that costs this response only.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

import { extname, join, normalize, sep } from 'node:path';
import { RENDERER_TYPES } from '../web/static-files';

// The desktop window's own origin: the UI is served from `app://mewbo/`, a custom protocol the
// main process answers from the built renderer, never from file:// (where every local file would
// share the page's origin). Pure: electron/main.ts registers the scheme and calls these.

export const APP_SCHEME = 'app';
export const APP_HOST = 'mewbo';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The window's CSP: scripts and everything else only from the app itself (no inline script, no
 * eval, no remote code); inline styles for the UI's style attributes; no plugins, frames, forms
 * or <base>. The host is reached over IPC, so no connect-src beyond 'self'.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** True for a URL of the app's own origin (app://mewbo/...). */
export function isAppUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    // Custom schemes have an opaque URL.origin ("null"): compare scheme and host instead.
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Links leave the app only for these schemes, and only to the system's browser or mail client. */
export function isExternalUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

export type AppResource =
  { ok: true; file: string; contentType: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * The file of the built renderer an app:// request names. Unknown extensionless paths answer
 * index.html (a one-page app); nothing outside `rendererDir` is ever named.
 */
export function appResource(rawUrl: string, rendererDir: string): AppResource {
  if (!isAppUrl(rawUrl)) return { ok: false, status: 403 };
  let path: string;
  try {
    path = decodeURIComponent(new URL(rawUrl).pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (path.includes('\0')) return { ok: false, status: 400 };
  const rel = normalize(path).replace(/^([/\\])+/, '');
  const root = normalize(rendererDir);
  const file = rel === '' ? join(root, 'index.html') : join(root, rel);
  if (!file.startsWith(root + sep)) return { ok: false, status: 403 };
  const ext = extname(file);
  if (!ext)
    return { ok: true, file: join(root, 'index.html'), contentType: RENDERER_TYPES['.html']! };
  const contentType = RENDERER_TYPES[ext];
  return contentType ? { ok: true, file, contentType } : { ok: false, status: 404 };
}

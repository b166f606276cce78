// Links drawn from model-authored text (markdown, panels) go only to these destinations, and open
// outside the app: a plain target=_blank link, which the browser opens in a new tab and Electron's
// window-open handler hands to the system browser. Anything else renders as text.

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

/** The URL if it is http, https or mailto; otherwise null. */
export function safeExternalHref(raw: string | undefined | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return ALLOWED.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

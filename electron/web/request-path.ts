// The path of an HTTP request as the web host reads it, or null when the request line is not one a
// well-behaved client sends (a bad percent-escape like `/%`, a NUL, a target that is not a path).
// Every handler reads paths through this, so a malformed URL is a 400, never a thrown URIError.

export function requestPath(target: string | undefined): string | null {
  if (!target?.startsWith('/') || target.startsWith('//')) return null;
  let url: URL;
  try {
    url = new URL(target, 'http://host.invalid');
  } catch {
    return null;
  }
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  return path.includes('\0') ? null : path;
}

/** The query parameters of a request target (only meaningful once requestPath accepted it). */
export function requestQuery(target: string): URLSearchParams {
  return new URL(target, 'http://host.invalid').searchParams;
}

// Where a project on an SSH host is, as the UI writes it: `[user@]host:/path`, the way scp and
// the picker name a remote folder (issue #29). The port stays in the ssh:// URL (the tooltip).

export interface RemotePlace {
  user?: string | null;
  host: string;
  path: string;
}

export function remotePlaceText(r: RemotePlace): string {
  return `${r.user ? `${r.user}@` : ''}${r.host}:${r.path}`;
}

/** The place of a canonical `ssh://[user@]host[:port]/path` URL (a session summary's `remote`). */
export function remotePlaceOfUrl(url: string): RemotePlace {
  const u = new URL(url);
  return {
    user: u.username ? decodeURIComponent(u.username) : null,
    // An IPv6 literal keeps its brackets, as in the URL.
    host: u.hostname,
    path: decodeURIComponent(u.pathname) || '/',
  };
}

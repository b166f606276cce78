import { HostError } from '../rpc/host-error';

// A remote project's address (issue #29 part 1): `ssh://[user@]host[:port]/absolute/path`, or
// `ssh://ALIAS/path` with ALIAS a Host of the user's ~/.ssh/config (OpenSSH resolves it; to us it
// is a host name). The user and host end up as words of an `ssh` command line, so anything ssh
// could read as an option (a leading '-': `ssh://-oProxyCommand=.../x` runs a command) or that a
// shell or ssh_config token would split is refused here, once, for every caller.

/** Where a remote project lives. `port` and `user` absent: ssh's own defaults and config apply. */
export interface SshTarget {
  user?: string;
  host: string;
  port?: number;
  /** Absolute, normalized: no '.', '..' or empty segments, no trailing '/' (except the root). */
  path: string;
}

const SCHEME = 'ssh://';
/** User names and host names/aliases: letters, digits, '.', '_', '-' (never first). */
const NAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
/** A bracketed IPv6 literal's inside: hex digits, ':' and '.' (an embedded IPv4). */
const IPV6 = /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;
const MAX_PORT = 65535;
/** Control characters end or split ssh and shell words; no remote project's path has them. */
function hasControl(text: string): boolean {
  for (const c of text) if (c < ' ' || c === '\x7f') return true;
  return false;
}

/** A host name or alias an ssh:// URL can carry (and ssh can never read as an option). */
export function isSshHostName(text: string): boolean {
  return NAME.test(text);
}

export function isSshUrl(text: string): boolean {
  return text.slice(0, SCHEME.length).toLowerCase() === SCHEME;
}

function invalid(url: string, what: string): HostError {
  // Quoted as JSON: a hostile URL's control characters are shown, never sent to a terminal.
  return new HostError(
    'invalid_url',
    `${JSON.stringify(url)} is not a remote project URL: ${what}`,
  );
}

/** Parses a remote project URL; the error names what is wrong and how a right one looks. */
export function parseSshUrl(url: string): SshTarget {
  if (!isSshUrl(url))
    throw invalid(url, 'it must start with ssh:// (ssh://[user@]host[:port]/absolute/path)');
  const rest = url.slice(SCHEME.length);
  if (/[?#]/.test(rest))
    throw invalid(url, 'a query (?) or fragment (#) has no meaning here; remove it');
  if (/\s/.test(rest) || hasControl(rest))
    throw invalid(
      url,
      'it contains white space or control characters (write a space in the path as %20)',
    );
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  if (slash < 0)
    throw invalid(url, 'the path is missing; add the absolute path of the project after the host');
  return { ...parseAuthority(url, authority), path: parsePath(url, rest.slice(slash)) };
}

function parseAuthority(url: string, authority: string): Omit<SshTarget, 'path'> {
  const at = authority.lastIndexOf('@');
  const user = at < 0 ? undefined : authority.slice(0, at);
  const hostPort = authority.slice(at + 1);
  if (user !== undefined) {
    if (user === '') throw invalid(url, "the user before '@' is empty");
    if (user.startsWith('-'))
      throw invalid(url, `the user '${user}' starts with '-', which ssh would read as an option`);
    if (!NAME.test(user))
      throw invalid(url, `the user '${user}' may only have letters, digits, '.', '_' and '-'`);
  }
  const { host, port } = splitHostPort(url, hostPort);
  return { ...(user !== undefined && { user }), host, ...(port !== undefined && { port }) };
}

function splitHostPort(url: string, hostPort: string): { host: string; port?: number } {
  let host: string;
  let portText: string | undefined;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) throw invalid(url, "the IPv6 address has no closing ']'");
    host = hostPort.slice(1, close);
    if (!IPV6.test(host)) throw invalid(url, `'${host}' in brackets is not an IPv6 address`);
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':'))
      throw invalid(url, `unexpected '${after}' after the IPv6 address`);
    portText = after === '' ? undefined : after.slice(1);
  } else {
    const colon = hostPort.indexOf(':');
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
    portText = colon < 0 ? undefined : hostPort.slice(colon + 1);
    if (host === '') throw invalid(url, 'the host is empty (ssh://host/path)');
    if (host.startsWith('-'))
      throw invalid(url, `the host '${host}' starts with '-', which ssh would read as an option`);
    if (!NAME.test(host))
      throw invalid(
        url,
        `the host '${host}' may only have letters, digits, '.', '_' and '-' (an IPv6 address goes in brackets)`,
      );
  }
  return { host, ...(portText !== undefined && { port: parsePort(url, portText) }) };
}

function parsePort(url: string, text: string): number {
  if (text === '') throw invalid(url, "the port after ':' is empty; remove the ':' or give a port");
  if (!/^[0-9]+$/.test(text)) throw invalid(url, `the port '${text}' is not a number`);
  const port = Number(text);
  if (port < 1 || port > MAX_PORT) throw invalid(url, `the port ${text} is outside 1-${MAX_PORT}`);
  return port;
}

function parsePath(url: string, raw: string): string {
  if (raw.startsWith('/~'))
    throw invalid(url, 'the path must be absolute; write the home folder out (/home/me/project)');
  const segments: string[] = [];
  for (const encoded of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      throw invalid(url, `'${encoded}' in the path is not valid percent-encoding`);
    }
    if (hasControl(segment)) throw invalid(url, 'the path contains control characters');
    if (segment.includes('/')) throw invalid(url, "the path encodes '/' as %2F; write '/' itself");
    if (segment === '..' || segment === '.')
      throw invalid(
        url,
        `the path has a '${segment}' segment; give the folder's own absolute path`,
      );
    if (segment !== '') segments.push(segment);
  }
  return '/' + segments.join('/');
}

/** The canonical URL of a target: parseSshUrl(formatSshUrl(t)) gives t back. */
export function formatSshUrl(target: SshTarget): string {
  const user = target.user === undefined ? '' : `${target.user}@`;
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  const port = target.port === undefined ? '' : `:${target.port}`;
  const path = target.path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `${SCHEME}${user}${host}${port}${path}`;
}

/** `path` on the host of project `url`, as a URL: a host's folder never reads as one of this computer. */
export function sshUrlOn(url: string, path: string): string {
  return formatSshUrl({ ...parseSshUrl(url), path });
}

/** A session's folder as the user reads it: `ssh://HOST/path` when its project is on a host. */
export function placeOf(session: { remote?: string }, path: string): string {
  return session.remote ? sshUrlOn(session.remote, path) : path;
}

/**
 * The host a URL is on, as one connection serves it: the canonical URL with the path `/`. Every
 * project and session on `ssh://ana@box:2222/...` shares the link `ssh://ana@box:2222/`.
 */
export function sshHostUrl(url: string): string {
  return sshUrlOn(url, '/');
}

/**
 * The words of an ssh command line naming the target, options first and the destination after
 * '--', so that even a host that slipped past the parser could never be read as an option.
 */
export function sshDestinationArgs(target: SshTarget): string[] {
  return [
    ...(target.port === undefined ? [] : ['-p', String(target.port)]),
    ...(target.user === undefined ? [] : ['-l', target.user]),
    '--',
    target.host,
  ];
}

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveExecutable } from '../lsp/resolve-command';

// Opening a page in the user's browser (an OAuth sign-in), or a folder in their file manager (a
// session's worktree): `$BROWSER` when set (the Debian/xdg
// convention: a command, the page's URL appended or put where `%s` is), else the system opener
// (xdg-open where a display is, open on macOS, the URL handler on Windows). The URL is one argv
// element, never a shell string, and only web pages are opened: an authorization server's metadata
// names the URL, and a `file:` or `javascript:` one must not reach the opener.
//
// A URL that is itself a secret (the web host's one-time login link) never goes on a command line:
// every process on the machine reads every other's (/proc/PID/cmdline, `ps`), and a sandboxed
// shell of the agent could spend the code before the browser does. It is written into a page
// that redirects to it, in a directory only the user can enter and a file only the user can read
// (Jupyter's way), and the browser is started on that file; only its path is on the command line.

export interface BrowserOpener {
  /** The command, for messages ("opened with xdg-open"). */
  readonly name: string;
  /** Starts the browser on `url`; resolves once it is spawned (a browser may run for hours). */
  open(url: string): Promise<void>;
  /**
   * Starts the browser on `url` without `url` in any process's arguments: through a redirecting
   * page written in `privateDir` (made 0700; an existing one must be a directory of this user's
   * and is made 0700). Resolves to that page's path, which the caller removes once the URL is
   * spent.
   */
  openPrivately(url: string, privateDir: string): Promise<string>;
  /**
   * Opens a folder of the user's (a session's worktree) in the system's file manager, as a
   * `file:` URL: only a directory that is not a symbolic link.
   */
  openFolder(dir: string): Promise<void>;
}

/** Web pages only: https anywhere, plain http on this machine (a local authorization server). */
export function openableUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return (
    parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
  );
}

/** The page that sends the browser on to `url` at once; `url` is only ever an openableUrl. */
function redirectPage(url: string): string {
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return (
    '<!doctype html>\n<html><head><meta charset="utf-8">' +
    '<meta name="referrer" content="no-referrer">' +
    `<meta http-equiv="refresh" content="0;url=${attr}"></head>` +
    `<body><a href="${attr}">Continue</a></body></html>\n`
  );
}

/**
 * Writes the redirecting page into `dir`: the directory made (or kept) owner-only and never a
 * link, the file created new (O_EXCL, O_NOFOLLOW) with mode 0600, so nobody else reads it and
 * nothing planted is written through.
 */
function writeRedirect(url: string, dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
    throw new Error(`${dir} is not a directory of this user's; not writing a login page there`);
  chmodSync(dir, 0o700);
  const file = join(dir, `open-${randomBytes(12).toString('hex')}.html`);
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, redirectPage(url));
  } finally {
    closeSync(fd);
  }
  return file;
}

function opener(command: string, args: string[], urlAt: number | null): BrowserOpener {
  const start = (target: string): Promise<void> => {
    const argv =
      urlAt === null ? [...args, target] : args.map((a, i) => (i === urlAt ? target : a));
    return new Promise((resolve, reject) => {
      const child = spawn(command, argv, { stdio: 'ignore', detached: true });
      child.once('error', (err) => reject(new Error(`${command} could not start: ${err.message}`)));
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
  };
  const refuse = (url: string) => new Error(`refusing to open ${url}: not an https page`);
  return {
    name: command,
    open(url) {
      return openableUrl(url) ? start(url) : Promise.reject(refuse(url));
    },
    async openPrivately(url, privateDir) {
      // The message cannot name the URL: it is the secret.
      if (!openableUrl(url))
        throw new Error('refusing to open the page: not https, nor http on this machine');
      const file = writeRedirect(url, privateDir);
      await start(pathToFileURL(file).href);
      return file;
    },
    async openFolder(dir) {
      const st = await lstat(dir).catch(() => null);
      if (!st?.isDirectory())
        throw new Error(`refusing to open ${dir}: it is not a folder (gone, a file or a link)`);
      await start(pathToFileURL(dir).href);
    },
  };
}

/** Words of a command line, split at blanks; single or double quotes keep a word together. */
function commandWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** `$BROWSER`'s first entry as a command: `%s` marks the URL's place, else it goes last. */
function fromBrowserVariable(value: string): BrowserOpener | null {
  const first = value.split(':').find((part) => part.trim());
  if (!first) return null;
  const [command, ...args] = commandWords(first);
  if (!command) return null;
  const at = args.indexOf('%s');
  return opener(command, args, at < 0 ? null : at);
}

/** How this process can open a page, or null when nothing can (a headless machine, no $BROWSER). */
export function browserOpener(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): BrowserOpener | null {
  if (env.BROWSER?.trim()) return fromBrowserVariable(env.BROWSER);
  const onPath = (program: string) =>
    resolveExecutable(program, '/', { before: [], after: [], path: env.PATH ?? '' });
  if (platform === 'darwin') return onPath('open') ? opener('open', [], null) : null;
  if (platform === 'win32') return opener('rundll32', ['url.dll,FileProtocolHandler'], null);
  // xdg-open without a display falls back to a text browser in this terminal: not a sign-in page.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  const xdg = onPath('xdg-open');
  return xdg ? opener(xdg, [], null) : null;
}
